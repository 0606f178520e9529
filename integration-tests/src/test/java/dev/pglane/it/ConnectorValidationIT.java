package dev.pglane.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.pglane.local.stack.ConnectRestException;
import dev.pglane.local.stack.ConnectorConfigs;
import dev.pglane.local.stack.PostgresNode;
import dev.pglane.local.stack.PostgresVersion;
import dev.pglane.local.stack.ValidationResult;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.Statement;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * A user fills in the example configs and asks the worker to validate them before creating the connectors: good
 * settings pass, and each bad one is reported on the key the user has to fix, in words that say what is wrong.
 * Runs on every major of {@code pglane.pg.versions}, each with a real server pair.
 */
@Timeout(value = 300, unit = TimeUnit.SECONDS)
class ConnectorValidationIT {
    private static final String SOURCE = SharedWorker.SOURCE_CONNECTOR;
    private static final String SINK = SharedWorker.SINK_CONNECTOR;
    private static final String LOCKED_ROLE = "pglane_locked";

    @RegisterExtension
    static final SharedWorker worker = new SharedWorker();

    @TempDir
    static Path workDir;

    static final Map<PostgresVersion, DatabasePair> servers = new EnumMap<>(PostgresVersion.class);

    @AfterAll
    static void stopServers() {
        servers.values().forEach(DatabasePair::close);
    }

    static List<PostgresVersion> versions() {
        return PostgresVersion.listFromProperty();
    }

    /** Servers of one major are started on first use and shared by the tests of that major. */
    private static synchronized DatabasePair serversOf(PostgresVersion version) {
        return servers.computeIfAbsent(version, v -> DatabasePair.start(v, workDir));
    }

    private static ConnectorConfigs configs(PostgresVersion version) {
        DatabasePair pair = serversOf(version);
        return ConnectorConfigs.forStack(pair.source(), pair.target(), worker.bootstrapServers());
    }

    /** Validates an example config with some settings changed, as a user editing the example would. */
    private static ValidationResult validateChanged(
            PostgresVersion version, String connectorClass, String template, Map<String, String> changes) {
        Map<String, String> config = configs(version).load(template);
        config.putAll(changes);
        return worker.rest().validate(connectorClass, config);
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("versions")
    @DisplayName("the servers run the requested major")
    void serversRunTheRequestedMajor(PostgresVersion version) {
        DatabasePair pair = serversOf(version);
        assertEquals(version.serverVersion(), pair.source().serverVersion());
        assertEquals(version.serverVersion(), pair.target().serverVersion());
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("versions")
    @DisplayName("the example configs, filled in, validate without errors")
    void exampleConfigsAreValid(PostgresVersion version) {
        ConnectorConfigs configs = configs(version);

        ValidationResult source = worker.rest().validate(SOURCE, configs.load(ConnectorConfigs.SOURCE_JSON));
        ValidationResult sink = worker.rest().validate(SINK, configs.load(ConnectorConfigs.SINK_JSON));

        assertEquals(0, source.errorCount(), source::toString);
        assertEquals(0, sink.errorCount(), sink::toString);
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("versions")
    @DisplayName("a source pointed at a port where nothing listens is reported on database.host and database.port")
    void unreachableSourceServer(PostgresVersion version) throws Exception {
        int closedPort = closedPort();
        ValidationResult result = validateChanged(
                version, SOURCE, ConnectorConfigs.SOURCE_JSON, Map.of("database.port", String.valueOf(closedPort)));

        String expected = "Cannot connect to PostgreSQL at 127.0.0.1:" + closedPort;
        assertOneContains(result, "database.port", expected);
        assertOneContains(result, "database.host", expected);
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("versions")
    @DisplayName("a source server without logical decoding (wal_level=replica) is refused on database.host")
    void sourceServerWithoutLogicalDecoding(PostgresVersion version) {
        PostgresNode replicaLevel = serversOf(version).target();
        ValidationResult result = validateChanged(
                version,
                SOURCE,
                ConnectorConfigs.SOURCE_JSON,
                Map.of("database.port", String.valueOf(replicaLevel.port())));

        assertOneContains(result, "database.host", "wal_level is 'replica'");
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("versions")
    @DisplayName("a source role without the REPLICATION attribute is refused on database.user")
    void sourceRoleWithoutReplication(PostgresVersion version) throws Exception {
        try (Connection connection = serversOf(version).source().open();
                Statement statement = connection.createStatement()) {
            statement.execute("DROP ROLE IF EXISTS pglane_reader");
            statement.execute("CREATE ROLE pglane_reader LOGIN PASSWORD 'reader-secret'");
        }
        ValidationResult result = validateChanged(
                version,
                SOURCE,
                ConnectorConfigs.SOURCE_JSON,
                Map.of("database.user", "pglane_reader", "database.password", "reader-secret"));

        assertOneContains(result, "database.user", "needs the REPLICATION attribute");
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("versions")
    @DisplayName("a topic prefix that is not a valid topic name is refused on topic.prefix")
    void badTopicPrefix(PostgresVersion version) {
        ValidationResult result =
                validateChanged(version, SOURCE, ConnectorConfigs.SOURCE_JSON, Map.of("topic.prefix", "bad prefix!"));

        assertFalse(result.errorsOn("topic.prefix").isEmpty(), result::toString);
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("versions")
    @DisplayName("a sink conflict policy outside error, skip, upsert is refused on conflict.policy")
    void unknownConflictPolicy(PostgresVersion version) {
        ValidationResult result =
                validateChanged(version, SINK, ConnectorConfigs.SINK_JSON, Map.of("conflict.policy", "sometimes"));

        assertOneContains(result, "conflict.policy", "must be one of error, skip, upsert");
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("versions")
    @DisplayName("a wrong password is reported on database.user and database.password, for source and sink")
    void wrongPassword(PostgresVersion version) throws Exception {
        DatabasePair pair = serversOf(version);
        Map<String, String> wrong = Map.of("database.user", LOCKED_ROLE, "database.password", "not-the-password");
        for (PostgresNode server : List.of(pair.source(), pair.target())) {
            PasswordRole.create(server, LOCKED_ROLE, "the-password");
        }

        ValidationResult source = validateChanged(version, SOURCE, ConnectorConfigs.SOURCE_JSON, wrong);
        ValidationResult sink = validateChanged(version, SINK, ConnectorConfigs.SINK_JSON, wrong);

        String expected = "PostgreSQL rejected user '" + LOCKED_ROLE + "'";
        assertOneContains(source, "database.password", expected);
        assertOneContains(sink, "database.password", expected);
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("versions")
    @DisplayName("a role that may not create the missing publication is refused on publication.name")
    void publicationWithoutPrivilege(PostgresVersion version) throws Exception {
        SqlSession.execute(
                serversOf(version).source(),
                "DROP ROLE IF EXISTS pglane_streamer",
                "CREATE ROLE pglane_streamer LOGIN REPLICATION");
        ValidationResult result = validateChanged(
                version,
                SOURCE,
                ConnectorConfigs.SOURCE_JSON,
                Map.of("database.user", "pglane_streamer", "publication.name", "pglane_unprivileged"));

        assertOneContains(result, "publication.name", "role 'pglane_streamer' may not create it");
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("versions")
    @DisplayName("a config that fails validation is refused by PUT and leaves no connector and no slot behind")
    void refusedConfigLeavesNothing(PostgresVersion version) throws Exception {
        String name = "refused_pg" + version.major();
        Map<String, String> config = configs(version).load(ConnectorConfigs.SOURCE_JSON);
        config.putAll(Map.of("name", name, "slot.name", name, "database.user", "pglane_nobody"));

        ConnectRestException refused =
                assertThrows(ConnectRestException.class, () -> worker.rest().putConnectorConfig(name, config));

        assertEquals(400, refused.status(), refused::getMessage);
        assertTrue(refused.body().contains("pglane_nobody"), refused::body);
        ConnectRestException absent =
                assertThrows(ConnectRestException.class, () -> worker.rest().status(name));
        assertEquals(404, absent.status(), absent::getMessage);
        try (SqlSession session = SqlSession.open(serversOf(version).source())) {
            assertEquals(
                    0L,
                    ((Number) session.queryValue("SELECT count(*) FROM pg_replication_slots WHERE slot_name = ?", name))
                            .longValue());
        }
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("versions")
    @DisplayName("a sink without auto.create whose listed topics lead to missing tables is refused on auto.create")
    void missingTargetTables(PostgresVersion version) throws Exception {
        SqlSession.execute(
                serversOf(version).target(),
                "CREATE SCHEMA IF NOT EXISTS shop",
                "CREATE TABLE IF NOT EXISTS shop.orders (id int PRIMARY KEY)");
        Map<String, String> config = configs(version).load(ConnectorConfigs.SINK_JSON);
        config.remove("topics.regex");
        config.put("topics", "pglane.transactions,pglane.shop.orders,pglane.shop.order_lines");
        config.put("auto.create", "false");

        ValidationResult result = worker.rest().validate(SINK, config);

        assertOneContains(
                result, "auto.create", "Target table(s) shop.order_lines (topic pglane.shop.order_lines) do not exist");
        assertEquals(1, result.errorCount(), result::toString);
    }

    private static void assertOneContains(ValidationResult result, String key, String expected) {
        assertTrue(
                result.errorsOn(key).stream().anyMatch(message -> message.contains(expected)),
                () -> "expected an error on " + key + " containing \"" + expected + "\"; got " + result);
    }

    /** A loopback port that was free a moment ago and that nothing listens on. */
    private static int closedPort() throws Exception {
        try (ServerSocket socket = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            return socket.getLocalPort();
        }
    }
}
