package dev.pglane.source;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.pglane.connect.config.DatabaseSettings;
import dev.pglane.docs.ConfigExamples;
import dev.pglane.source.validate.ConverterRules;
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
        assertEquals(List.of(), ConfigExamples.unknownKeys(config, PgSourceConfig.CONFIG_DEF), file + ": unknown keys");
        assertEquals(List.of(), ConfigExamples.fieldErrors(config, PgSourceConfig.CONFIG_DEF), file);
        assertTrue(config.containsKey(DatabaseSettings.PASSWORD), file);
        assertEquals("pglane", new PgSourceConfig(config).topicPrefix(), file);
        assertEquals(List.of(), ConverterRules.problems(new PgSourceConfig(config).payloadFormat(), config), file);
    }
}
