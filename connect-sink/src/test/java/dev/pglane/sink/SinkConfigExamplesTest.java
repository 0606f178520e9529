package dev.pglane.sink;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.pglane.docs.ConfigExamples;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** The sink examples in config-examples/ use only known keys and pass the field checks. */
class SinkConfigExamplesTest {
    @ParameterizedTest
    @ValueSource(strings = {"sink-json.json", "sink-avro.json"})
    void exampleIsAValidSinkConfig(String file) {
        Map<String, String> config = ConfigExamples.load(file);
        assertEquals(PgSinkConnector.class.getName(), config.get("connector.class"));
        List<String> unknown = config.keySet().stream()
                .filter(k -> !PgSinkConfig.CONFIG_DEF.names().contains(k) && !ConfigExamples.isFrameworkKey(k))
                .toList();
        assertEquals(List.of(), unknown, file + " has keys that neither pglane nor Connect knows");
        List<String> errors = PgSinkConfig.CONFIG_DEF.validate(config).stream()
                .flatMap(v -> v.errorMessages().stream())
                .toList();
        assertEquals(List.of(), errors);
        assertEquals("pglane.transactions", new PgSinkConfig(config).markerTopic());
        assertEquals(List.of(), PgSinkConnectorTest.errors(withoutHost(config), "topics.regex"), file);
    }

    /** Without a host validate() stays offline but still checks that topics.regex takes the markers. */
    private static Map<String, String> withoutHost(Map<String, String> config) {
        config.remove(PgSinkConfig.DATABASE_HOST);
        return config;
    }
}
