package dev.pglane.sink;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.pglane.connect.config.DatabaseSettings;
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
        assertEquals(List.of(), ConfigExamples.unknownKeys(config, PgSinkConfig.CONFIG_DEF), file + ": unknown keys");
        assertEquals(List.of(), ConfigExamples.fieldErrors(config, PgSinkConfig.CONFIG_DEF), file);
        assertEquals("pglane.transactions", new PgSinkConfig(config).markerTopic());
        assertEquals(List.of(), PgSinkConnectorTest.errors(withoutHost(config), "topics.regex"), file);
    }

    /** Without a host validate() stays offline but still checks that topics.regex takes the markers. */
    private static Map<String, String> withoutHost(Map<String, String> config) {
        config.remove(DatabaseSettings.HOST);
        return config;
    }
}
