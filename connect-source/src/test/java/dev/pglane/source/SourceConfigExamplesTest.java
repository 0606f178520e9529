package dev.pglane.source;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.pglane.docs.ConfigExamples;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** The source examples in config-examples/ use only known keys and pass the field checks. */
class SourceConfigExamplesTest {
    @ParameterizedTest
    @ValueSource(strings = {"source-json.json", "source-avro.json"})
    void exampleIsAValidSourceConfig(String file) {
        Map<String, String> config = ConfigExamples.load(file);
        assertEquals(PgSourceConnector.class.getName(), config.get("connector.class"));
        List<String> unknown = config.keySet().stream()
                .filter(k -> !PgSourceConfig.CONFIG_DEF.names().contains(k) && !ConfigExamples.isFrameworkKey(k))
                .toList();
        assertEquals(List.of(), unknown, file + " has keys that neither pglane nor Connect knows");
        List<String> errors = PgSourceConfig.CONFIG_DEF.validate(config).stream()
                .flatMap(v -> v.errorMessages().stream())
                .toList();
        assertEquals(List.of(), errors);
        assertTrue(config.containsKey(PgSourceConfig.DATABASE_PASSWORD), file);
        assertEquals("pglane", new PgSourceConfig(config).topicPrefix(), file);
    }
}
