package dev.pglane.sink;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.pglane.connect.config.DatabaseSettings;
import dev.pglane.connect.logging.LogCapture;
import dev.pglane.docs.ValidationErrors;
import java.util.List;
import java.util.Map;
import org.apache.kafka.common.config.ConfigException;
import org.junit.jupiter.api.Test;

class PgSinkConnectorTest {
    /** Errors of one key; the config has no database.host, so validate() opens no connection. */
    static List<String> errors(Map<String, String> props, String key) {
        return ValidationErrors.byKey(new PgSinkConnector().validate(props)).getOrDefault(key, List.of());
    }

    static Map<String, String> withoutHost() {
        Map<String, String> props = PgSinkConfigTest.minimal();
        props.remove(DatabaseSettings.HOST);
        return props;
    }

    @Test
    void alwaysPlansOneTask() {
        PgSinkConnector connector = new PgSinkConnector();
        connector.start(PgSinkConfigTest.minimal());
        List<Map<String, String>> tasks = connector.taskConfigs(6);
        assertEquals(1, tasks.size());
        assertEquals("pglane", tasks.get(0).get(PgSinkConfig.SOURCE_TOPIC_PREFIX));
        assertEquals(PgSinkTask.class, connector.taskClass());
    }

    @Test
    void versionComesFromTheBuild() {
        String version = new PgSinkConnector().version();
        assertFalse(version.isBlank());
        assertFalse(version.contains("${"), version);
        assertEquals(version, new PgSinkTask().version());
    }

    @Test
    void taskRefusesAConfigWithoutItsRequiredSettings() {
        ConfigException e = assertThrows(ConfigException.class, () -> new PgSinkTask().start(Map.of()));
        assertTrue(e.getMessage().startsWith("Missing required configuration \"database.host\""), e.getMessage());
    }

    @Test
    void topicsMustIncludeTheMarkerTopic() {
        Map<String, String> props = withoutHost();
        props.put("topics", "pglane.public.orders");
        assertEquals(
                List.of("topics 'pglane.public.orders' does not include the marker topic pglane.transactions of"
                        + " source.topic.prefix; the sink needs it for the transaction boundaries and the commit"
                        + " order"),
                errors(props, "topics"));
        props.put("topics", "pglane.public.orders, pglane.transactions");
        assertEquals(List.of(), errors(props, "topics"));
    }

    @Test
    void debeziumsTopicsNeedItsTransactionMetadataTopic() {
        Map<String, String> props = withoutHost();
        props.put("source.format", "debezium");
        props.put("topics", "pglane.public.orders");
        assertEquals(
                List.of("topics 'pglane.public.orders' does not include the marker topic"
                        + " pglane.transaction of source.topic.prefix; the sink needs it for the transaction"
                        + " boundaries and the commit order"),
                errors(props, "topics"));
        props.put("topics", "pglane.public.orders, pglane.transaction");
        assertEquals(List.of(), errors(props, "topics"));
        props.put("source.topic.single.name", "pglane.changes");
        assertEquals(
                List.of("source.topic.single.name names the single change topic of pglane's source; Debezium's tables"
                        + " are read from their own topics (source.format=debezium)"),
                errors(props, "source.topic.single.name"));
    }

    @Test
    void listedTopicsWhoseNameSplitsAmbiguouslyAreRefused() {
        Map<String, String> props = withoutHost();
        String long64 = "t".repeat(64);
        props.put("topics", "pglane.transactions, pglane.public.orders, pglane.a.b.c, pglane.public." + long64);
        assertEquals(
                List.of(
                        "topic pglane.a.b.c does not name one schema and one table: a table whose schema or table"
                                + " name holds a dot shares its topic with other splits of the name, so the sink"
                                + " refuses its records",
                        "topic pglane.public." + long64 + " names a schema or table over 63 bytes, which no"
                                + " PostgreSQL table has, so the sink refuses its records"),
                errors(props, "topics"));
    }

    @Test
    void topicsRegexMustMatchTheMarkerTopic() {
        Map<String, String> props = withoutHost();
        props.put("topics.regex", "pglane\\.public\\..*");
        assertTrue(errors(props, "topics.regex").get(0).contains("does not include the marker topic"));
        props.put("topics.regex", "pglane\\..*");
        assertEquals(List.of(), errors(props, "topics.regex"));
    }

    @Test
    void thePayloadFormatMustFitTheValueConverter() {
        String bytes = "org.apache.kafka.connect.converters.ByteArrayConverter";
        Map<String, String> props = withoutHost();
        props.put("payload.format", "json");
        props.put("value.converter", "dev.pglane.connect.json.PglaneJsonConverter");
        assertEquals(
                List.of("payload.format=json decodes the records' bytes itself, but value.converter is"
                        + " dev.pglane.connect.json.PglaneJsonConverter: set it (and key.converter) to " + bytes),
                errors(props, "payload.format"));
        props.put("value.converter", bytes);
        assertEquals(List.of(), errors(props, "payload.format"));
        props.put("payload.format", "connect");
        assertEquals(
                List.of("value.converter is " + bytes + ", which hands the sink bytes: set payload.format=json or"
                        + " avro to decode them"),
                errors(props, "payload.format"));
        props.put("payload.format", "avro");
        assertEquals(List.of(), errors(props, "payload.format"));
        assertEquals(
                List.of("payload.format=avro reads Avro through a schema registry: set its Apicurio API URL"),
                errors(props, "payload.avro.apicurio.registry.url"));
        props.put("payload.avro.apicurio.registry.url", "http://registry:8080/apis/registry/v2");
        assertEquals(List.of(), errors(props, "payload.avro.apicurio.registry.url"));
        props.put("payload.format", "connect");
        props.remove("value.converter");
        assertEquals(List.of(), errors(props, "payload.format"), "the worker's converter is not known here");
    }

    @Test
    void onlyTheMissingHostIsReported() {
        long keysWithErrors = ValidationErrors.byKey(new PgSinkConnector().validate(withoutHost()))
                .size();
        assertEquals(1, keysWithErrors);
    }

    /** The warnings about a TLS mode that does not authenticate the server. */
    static List<String> tlsWarnings(LogCapture logs) {
        return logs.warnings().stream()
                .filter(w -> w.contains("does not authenticate the server"))
                .toList();
    }

    @Test
    void startWarnsOnceAboutTheDefaultModeNamingItAndWhatToSet() {
        Map<String, String> props = PgSinkConfigTest.minimal();
        props.put("name", "orders-sink");
        try (LogCapture logs = LogCapture.start()) {
            new PgSinkConnector().start(props);
            List<String> warnings = tlsWarnings(logs);
            assertEquals(1, warnings.size(), logs.lines().toString());
            assertTrue(
                    warnings.get(0)
                            .contains("Connector 'orders-sink': database.sslmode=prefer does not authenticate"
                                    + " the server"),
                    warnings.get(0));
            assertTrue(warnings.get(0).contains("Set database.sslmode=verify_full"), warnings.get(0));
        }
    }

    @Test
    void validateWarnsAboutAModeThatDoesNotAuthenticateTheServerButVerifyFullIsQuiet() {
        try (LogCapture logs = LogCapture.start()) {
            Map<String, String> props = withoutHost();
            props.put(DatabaseSettings.SSLMODE, "require");
            new PgSinkConnector().validate(props);
            assertEquals(1, tlsWarnings(logs).size(), logs.lines().toString());
            assertTrue(
                    tlsWarnings(logs).get(0).contains("database.sslmode=require"),
                    logs.lines().toString());

            props.put(DatabaseSettings.SSLMODE, "verify_full");
            new PgSinkConnector().validate(props);
            Map<String, String> started = PgSinkConfigTest.minimal();
            started.put(DatabaseSettings.SSLMODE, "verify_full");
            new PgSinkConnector().start(started);
            assertEquals(1, tlsWarnings(logs).size(), logs.lines().toString());
        }
    }
}
