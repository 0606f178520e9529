package dev.pglane.source;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.pglane.connect.config.DatabaseSettings;
import dev.pglane.connect.logging.LogCapture;
import dev.pglane.docs.ValidationErrors;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class PgSourceConnectorTest {
    /** Errors of one key; the config has no database.host, so validate() opens no connection. */
    static List<String> errors(Map<String, String> props, String key) {
        return ValidationErrors.byKey(new PgSourceConnector().validate(props)).getOrDefault(key, List.of());
    }

    static Map<String, String> withoutHost() {
        Map<String, String> props = PgSourceConfigTest.minimal();
        props.remove(DatabaseSettings.HOST);
        return props;
    }

    @Test
    void alwaysPlansOneTask() {
        PgSourceConnector connector = new PgSourceConnector();
        connector.start(PgSourceConfigTest.minimal());
        List<Map<String, String>> tasks = connector.taskConfigs(8);
        assertEquals(1, tasks.size());
        assertEquals("pglane", tasks.get(0).get(PgSourceConfig.TOPIC_PREFIX));
        assertEquals(PgSourceTask.class, connector.taskClass());
    }

    @Test
    void versionComesFromTheBuild() {
        String version = new PgSourceConnector().version();
        assertFalse(version.isBlank());
        assertFalse(version.contains("${"), version);
        assertEquals(version, new PgSourceTask().version());
    }

    @Test
    void missingHostIsAFieldError() {
        assertTrue(errors(withoutHost(), DatabaseSettings.HOST).get(0).contains("database.host"));
    }

    @Test
    void includeAndExcludeListsExcludeEachOther() {
        Map<String, String> props = withoutHost();
        props.put(PgSourceConfig.TABLE_INCLUDE_LIST, "public\\.a");
        props.put(PgSourceConfig.TABLE_EXCLUDE_LIST, "public\\.b");
        String expected = "table.include.list and table.exclude.list cannot both be set";
        assertTrue(errors(props, PgSourceConfig.TABLE_INCLUDE_LIST).get(0).contains(expected));
        assertTrue(errors(props, PgSourceConfig.TABLE_EXCLUDE_LIST).get(0).contains(expected));
    }

    @Test
    void aPaceGroupNeedsItsBrokers() {
        Map<String, String> props = withoutHost();
        props.put(PaceSettings.SNAPSHOT_PACE_GROUP, "connect-pglane-sink");
        assertTrue(errors(props, PaceSettings.SNAPSHOT_PACE_BOOTSTRAP_SERVERS)
                .get(0)
                .contains("snapshot.pace.bootstrap.servers is required with snapshot.pace.group"));
        props.put(PaceSettings.SNAPSHOT_PACE_BOOTSTRAP_SERVERS, "localhost:9092");
        assertEquals(List.of(), errors(props, PaceSettings.SNAPSHOT_PACE_BOOTSTRAP_SERVERS));
        props.put(PaceSettings.SNAPSHOT_PACE_MAX_LAG_MS, "-1");
        assertEquals(1, errors(props, PaceSettings.SNAPSHOT_PACE_MAX_LAG_MS).size());
    }

    @Test
    void aSignalTopicNeedsItsBrokers() {
        Map<String, String> props = withoutHost();
        props.put(SnapshotSettings.SIGNAL_KAFKA_TOPIC, "pglane-signals");
        assertTrue(errors(props, SnapshotSettings.SIGNAL_KAFKA_BOOTSTRAP_SERVERS)
                .get(0)
                .contains("signal.kafka.bootstrap.servers is required with signal.kafka.topic"));
        props.put(SnapshotSettings.SIGNAL_KAFKA_BOOTSTRAP_SERVERS, "localhost:9092");
        assertEquals(List.of(), errors(props, SnapshotSettings.SIGNAL_KAFKA_BOOTSTRAP_SERVERS));
    }

    @Test
    void aHeartbeatActionQueryNeedsHeartbeats() {
        Map<String, String> props = withoutHost();
        props.put(HousekeepingSettings.HEARTBEAT_ACTION_QUERY, "INSERT INTO public.beat VALUES (now())");
        assertEquals(
                List.of("heartbeat.action.query runs at every heartbeat: set heartbeat.interval.ms above 0 too"),
                errors(props, HousekeepingSettings.HEARTBEAT_ACTION_QUERY));
        props.put(PgSourceConfig.HEARTBEAT_INTERVAL_MS, "10000");
        assertEquals(List.of(), errors(props, HousekeepingSettings.HEARTBEAT_ACTION_QUERY));
    }

    @Test
    void backoffMustNotStartAboveItsMaximum() {
        Map<String, String> props = withoutHost();
        props.put(PgSourceConfig.RECONNECT_BACKOFF_INITIAL_MS, "60000");
        assertEquals(
                List.of("reconnect.backoff.initial.ms (60000) must not be larger than reconnect.backoff.max.ms"
                        + " (30000)"),
                errors(props, PgSourceConfig.RECONNECT_BACKOFF_INITIAL_MS));
    }

    @Test
    void singleTopicMustNotBeTheMarkerTopic() {
        Map<String, String> props = withoutHost();
        props.put(PgSourceConfig.TOPIC_SINGLE_NAME, "pglane.transactions");
        assertTrue(errors(props, PgSourceConfig.TOPIC_SINGLE_NAME).get(0).contains("is taken by pglane's markers"));
    }

    @Test
    void validConfigWithoutConnectionKeysHasOnlyTheFieldError() {
        long keysWithErrors = ValidationErrors.byKey(new PgSourceConnector().validate(withoutHost()))
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
        try (LogCapture logs = LogCapture.start()) {
            new PgSourceConnector().start(PgSourceConfigTest.minimal());
            List<String> warnings = tlsWarnings(logs);
            assertEquals(1, warnings.size(), logs.lines().toString());
            assertTrue(
                    warnings.get(0)
                            .contains("Connector 'source': database.sslmode=prefer does not authenticate the"
                                    + " server"),
                    warnings.get(0));
            assertTrue(warnings.get(0).contains("Set database.sslmode=verify_full"), warnings.get(0));
        }
    }

    @Test
    void validateWarnsAboutAModeThatDoesNotAuthenticateTheServerButVerifyFullIsQuiet() {
        try (LogCapture logs = LogCapture.start()) {
            Map<String, String> props = withoutHost();
            props.put(DatabaseSettings.SSLMODE, "disable");
            new PgSourceConnector().validate(props);
            assertEquals(1, tlsWarnings(logs).size(), logs.lines().toString());
            assertTrue(
                    tlsWarnings(logs).get(0).contains("database.sslmode=disable"),
                    logs.lines().toString());

            props.put(DatabaseSettings.SSLMODE, "verify_full");
            new PgSourceConnector().validate(props);
            Map<String, String> started = PgSourceConfigTest.minimal();
            started.put(DatabaseSettings.SSLMODE, "verify_full");
            new PgSourceConnector().start(started);
            assertEquals(1, tlsWarnings(logs).size(), logs.lines().toString());
        }
    }

    @Test
    void theKeyPasswordIsNeverLogged() {
        String secret = "pk8-s3cret-5521";
        Map<String, String> props = PgSourceConfigTest.minimal();
        props.put(DatabaseSettings.SSLPASSWORD, secret);
        Map<String, String> offline = withoutHost();
        offline.put(DatabaseSettings.SSLPASSWORD, secret);
        try (LogCapture logs = LogCapture.start()) {
            new PgSourceConnector().start(props);
            new PgSourceConnector().validate(offline);
            String logged = String.join("\n", logs.lines());
            assertTrue(logged.contains("database.sslpassword = [hidden]"), logged);
            assertFalse(logged.contains(secret), logged);
        }
    }
}
