package dev.pglane.source;

import static dev.pglane.docs.ValidationErrors.assertOn;
import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.pglane.connect.config.DatabaseSettings;
import dev.pglane.docs.ValidationErrors;
import io.zonky.test.db.postgres.embedded.EmbeddedPostgres;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.apache.kafka.connect.source.ConnectorTransactionBoundaries;
import org.apache.kafka.connect.source.ExactlyOnceSupport;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/** validate() against a real PostgreSQL: each problem on the right key, with the promised message. */
class PgSourceConnectorValidateTest {
    private static EmbeddedPostgres server;

    @BeforeAll
    static void startServer() throws IOException, SQLException {
        server = EmbeddedPostgres.builder()
                .setServerConfig("wal_level", "logical")
                .setDataDirectoryCustomizer(PgSourceConnectorValidateTest::requirePasswordForOneRole)
                .start();
        sql(
                "CREATE ROLE pw_user LOGIN REPLICATION PASSWORD 'right'",
                "CREATE ROLE plain_user LOGIN",
                "CREATE TABLE public.a (id int PRIMARY KEY)",
                "CREATE TABLE public.b (id int PRIMARY KEY)",
                "CREATE PUBLICATION pub_a FOR TABLE public.a",
                "SELECT pg_create_physical_replication_slot('physical_slot')");
    }

    @AfterAll
    static void stopServer() throws IOException {
        server.close();
    }

    /** zonky trusts everyone; one role with a password lets the test see an authentication failure. */
    static void requirePasswordForOneRole(java.io.File dataDirectory) {
        try {
            Files.writeString(
                    dataDirectory.toPath().resolve("pg_hba.conf"),
                    String.join(
                            "\n",
                            "host all pw_user 127.0.0.1/32 scram-sha-256",
                            "host all pw_user ::1/128 scram-sha-256",
                            "local all all trust",
                            "host all all 127.0.0.1/32 trust",
                            "host all all ::1/128 trust",
                            ""));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    static void sql(String... statements) throws SQLException {
        try (Connection c = server.getPostgresDatabase().getConnection();
                Statement st = c.createStatement()) {
            for (String statement : statements) {
                st.execute(statement);
            }
        }
    }

    static Map<String, String> config(EmbeddedPostgres pg) {
        Map<String, String> props = new HashMap<>();
        props.put("name", "validate-test");
        props.put(DatabaseSettings.HOST, "127.0.0.1");
        props.put(DatabaseSettings.PORT, Integer.toString(pg.getPort()));
        props.put(DatabaseSettings.NAME, "postgres");
        props.put(DatabaseSettings.USER, "postgres");
        props.put(DatabaseSettings.SSLMODE, "disable");
        props.put(PgSourceConfig.TOPIC_PREFIX, "pglane");
        return props;
    }

    static Map<String, List<String>> errors(Map<String, String> props) {
        return ValidationErrors.byKey(new PgSourceConnector().validate(props));
    }

    @Test
    void workingSetupHasNoErrors() {
        assertEquals(Map.of(), errors(config(server)));
    }

    @Test
    void settingsThatLetConnectSkipRecordsAreRefusedOnTheirKeys() {
        Map<String, String> props = config(server);
        props.put("errors.tolerance", "all");
        props.put("transforms", "route");
        Map<String, List<String>> errors = errors(props);
        assertOn(errors, "errors.tolerance", "errors.tolerance=all would let Connect skip a record");
        assertOn(errors, "transforms", "transformations (route) may drop records");
    }

    /**
     * Under transaction.boundary=connector every Kafka transaction ends between database transactions, which
     * streamed ones never leave: refused with the reason, and Connect is told the boundaries cannot be drawn.
     */
    @Test
    void connectorDrawnKafkaTransactionsNeedTransactionsUnstreamed() {
        Map<String, String> props = config(server);
        props.put("transaction.boundary", "connector");
        PgSourceConnector connector = new PgSourceConnector();
        assertEquals(Map.of(), errors(props));
        assertEquals(ExactlyOnceSupport.SUPPORTED, connector.exactlyOnceSupport(props));
        assertEquals(ConnectorTransactionBoundaries.SUPPORTED, connector.canDefineTransactionBoundaries(props));

        props.put("streaming.mode", "on");
        assertOn(errors(props), "streaming.mode", "streamed transactions (streaming.mode=on) interleave");
        assertEquals(ConnectorTransactionBoundaries.UNSUPPORTED, connector.canDefineTransactionBoundaries(props));
        assertEquals(ExactlyOnceSupport.UNSUPPORTED, connector.exactlyOnceSupport(props));

        props.put("transaction.boundary", "poll");
        assertEquals(Map.of(), errors(props));
        assertEquals(
                ExactlyOnceSupport.UNSUPPORTED,
                connector.exactlyOnceSupport(props),
                "a poll boundary may cut a transaction, whose start a restart sends again");
    }

    @Test
    void columnListsAreOneOrTheOtherAndHashingNeedsASalt() {
        Map<String, String> props = config(server);
        props.put("column.include.list", "public\\.a\\.id");
        props.put("column.exclude.list", ".*\\.secret");
        props.put("column.mask.hash.list", ".*\\.email");
        Map<String, List<String>> errors = errors(props);
        assertOn(errors, "column.include.list", "column.include.list and column.exclude.list cannot both be set");
        assertOn(errors, "column.exclude.list", "column.include.list and column.exclude.list cannot both be set");
        assertOn(errors, "column.mask.hash.salt", "column.mask.hash.salt is required with column.mask.hash.list");

        props.remove("column.include.list");
        props.put("column.mask.hash.salt", "pepper");
        assertEquals(Map.of(), errors(props));
    }

    @Test
    void thePayloadFormatMustFitBothConverters() {
        String bytes = "org.apache.kafka.connect.converters.ByteArrayConverter";
        String json = "org.apache.kafka.connect.json.JsonConverter";
        Map<String, String> props = config(server);
        props.put("payload.format", "json");
        props.put("key.converter", bytes);
        props.put("value.converter", json);
        assertEquals(
                List.of("payload.format=json writes the records' bytes in the decoder lanes, but value.converter is "
                        + json + ", which would wrap those bytes once more: set key.converter and value.converter to "
                        + bytes),
                errors(props).get("payload.format"));
        props.put("value.converter", bytes);
        assertEquals(Map.of(), errors(props));
        props.put("payload.format", "avro");
        assertEquals(
                Map.of(
                        "payload.avro.apicurio.registry.url",
                        List.of("payload.format=avro writes Avro through a schema registry: set its Apicurio API URL")),
                errors(props));
        props.put("payload.avro.apicurio.registry.url", "http://registry:8080/apis/registry/v2");
        assertEquals(Map.of(), errors(props));
        props.put("payload.format", "connect");
        assertOn(
                errors(props),
                "payload.format",
                "key.converter is " + bytes + ", which cannot write the source's"
                        + " Connect structs: set payload.format=json or avro");
        props.remove("key.converter");
        props.remove("value.converter");
        assertEquals(Map.of(), errors(props), "the worker's converters are not known here");
    }

    @Test
    void matchingPublicationHasNoErrors() {
        Map<String, String> props = config(server);
        props.put(PgSourceConfig.PUBLICATION_NAME, "pub_a");
        props.put(PgSourceConfig.TABLE_INCLUDE_LIST, "public\\.a");
        assertEquals(Map.of(), errors(props));
    }

    @Test
    void walLevelReplicaIsReportedOnHost() throws IOException {
        try (EmbeddedPostgres replica = EmbeddedPostgres.builder()
                .setServerConfig("wal_level", "replica")
                .start()) {
            Map<String, List<String>> errors = errors(config(replica));
            assertOn(
                    errors,
                    DatabaseSettings.HOST,
                    "wal_level is 'replica' on 127.0.0.1:" + replica.getPort()
                            + "; the source needs wal_level=logical (set it in postgresql.conf and restart the"
                            + " server)");
        }
    }

    @Test
    void closedPortIsReportedOnHostAndPort() throws IOException {
        int port;
        try (ServerSocket socket = new ServerSocket(0)) {
            port = socket.getLocalPort();
        }
        Map<String, String> props = config(server);
        props.put(DatabaseSettings.PORT, Integer.toString(port));
        Map<String, List<String>> errors = errors(props);
        String expected = "Cannot connect to PostgreSQL at 127.0.0.1:" + port + ": ";
        assertOn(errors, DatabaseSettings.HOST, expected);
        assertOn(errors, DatabaseSettings.PORT, expected);
        assertEquals(2, errors.size(), errors.toString());
    }

    /**
     * In a URL this host would reach the test server in clear text under verify_full (URL parameters outrank pgjdbc's
     * properties). It is a field error on database.host; nothing connects.
     */
    @Test
    void hostThatCarriesDriverPropertiesIsRefusedOnHost() {
        Map<String, String> props = config(server);
        String injected = "127.0.0.1/postgres?PGPORT=" + server.getPort() + "&sslmode=disable&ignored=";
        props.put(DatabaseSettings.HOST, injected);
        props.put(DatabaseSettings.SSLMODE, "verify_full");
        Map<String, List<String>> errors = errors(props);
        assertEquals(Set.of(DatabaseSettings.HOST), errors.keySet(), errors.toString());
        assertOn(
                errors,
                DatabaseSettings.HOST,
                "Invalid value " + injected + " for configuration database.host: must be a host name");
    }

    @Test
    void silentServerTimesOut() throws IOException {
        try (ServerSocket silent = new ServerSocket(0)) {
            Map<String, String> props = config(server);
            props.put(DatabaseSettings.PORT, Integer.toString(silent.getLocalPort()));
            props.put(DatabaseSettings.CONNECT_TIMEOUT_MS, "500");
            Map<String, List<String>> errors = errors(props);
            String expected = "Cannot connect to PostgreSQL at 127.0.0.1:" + silent.getLocalPort() + ": ";
            assertOn(errors, DatabaseSettings.HOST, expected);
            assertOn(errors, DatabaseSettings.PORT, expected);
        }
    }

    @Test
    void wrongPasswordIsReportedOnUserAndPassword() {
        Map<String, String> props = config(server);
        props.put(DatabaseSettings.USER, "pw_user");
        props.put(DatabaseSettings.PASSWORD, "wrong");
        Map<String, List<String>> errors = errors(props);
        assertOn(errors, DatabaseSettings.USER, "PostgreSQL rejected user 'pw_user': ");
        assertOn(errors, DatabaseSettings.PASSWORD, "PostgreSQL rejected user 'pw_user': ");
    }

    @Test
    void unknownRoleIsReportedOnUser() {
        Map<String, String> props = config(server);
        props.put(DatabaseSettings.USER, "nobody");
        assertOn(errors(props), DatabaseSettings.USER, "PostgreSQL rejected user 'nobody': ");
    }

    @Test
    void missingDatabaseIsReportedOnName() {
        Map<String, String> props = config(server);
        props.put(DatabaseSettings.NAME, "nope");
        assertOn(
                errors(props),
                DatabaseSettings.NAME,
                "Database 'nope' does not exist on 127.0.0.1:" + server.getPort());
    }

    @Test
    void roleWithoutReplicationIsReportedOnUser() {
        Map<String, String> props = config(server);
        props.put(DatabaseSettings.USER, "plain_user");
        Map<String, List<String>> errors = errors(props);
        assertOn(
                errors,
                DatabaseSettings.USER,
                "Role 'plain_user' needs the REPLICATION attribute (ALTER ROLE plain_user REPLICATION) to read"
                        + " logical replication");
        assertOn(errors, PgSourceConfig.PUBLICATION_NAME, "FOR ALL TABLES needs a superuser");
    }

    @Test
    void publicationMismatchNamesTheTables() {
        Map<String, String> props = config(server);
        props.put(PgSourceConfig.PUBLICATION_NAME, "pub_a");
        props.put(PgSourceConfig.TABLE_INCLUDE_LIST, "public\\.b");
        Map<String, List<String>> errors = errors(props);
        assertOn(errors, PgSourceConfig.PUBLICATION_NAME, "it lacks public.b; it also publishes public.a");
    }

    @Test
    void publicationThatIsNotForAllTables() {
        Map<String, String> props = config(server);
        props.put(PgSourceConfig.PUBLICATION_NAME, "pub_a");
        assertOn(errors(props), PgSourceConfig.PUBLICATION_NAME, "is not FOR ALL TABLES, but no table list is set");
    }

    @Test
    void absentPublicationWithoutCreate() {
        Map<String, String> props = config(server);
        props.put(PgSourceConfig.PUBLICATION_NAME, "absent");
        props.put(PgSourceConfig.PUBLICATION_CREATE, "false");
        assertOn(errors(props), PgSourceConfig.PUBLICATION_NAME, "publication.create is false");
    }

    @Test
    void physicalSlotIsReportedOnSlotName() {
        Map<String, String> props = config(server);
        props.put(PgSourceConfig.SLOT_NAME, "physical_slot");
        assertOn(errors(props), PgSourceConfig.SLOT_NAME, "Replication slot 'physical_slot' on 127.0.0.1:");
    }
}
