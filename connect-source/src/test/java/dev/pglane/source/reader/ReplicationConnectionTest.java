package dev.pglane.source.reader;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.pglane.connect.database.DatabaseEndpoint;
import dev.pglane.connect.database.TlsSettings;
import dev.pglane.source.pgoutput.ProtocolVersion;
import dev.pglane.source.values.SessionSettings;
import dev.pglane.wire.Lsn;
import io.zonky.test.db.postgres.embedded.EmbeddedPostgres;
import java.io.IOException;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.Properties;
import java.util.concurrent.TimeUnit;
import java.util.function.Predicate;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.postgresql.PGProperty;
import org.postgresql.jdbc.SslMode;

/** The replication connection's session against a real server: its settings, and the server it names. */
class ReplicationConnectionTest {
    private static EmbeddedPostgres server;

    @BeforeAll
    static void startServer() throws IOException {
        server = EmbeddedPostgres.builder()
                .setServerConfig("wal_level", "logical")
                .start();
    }

    @AfterAll
    static void stopServer() throws IOException {
        server.close();
    }

    private static DatabaseEndpoint endpoint() {
        return endpointOf(server);
    }

    /** The embedded server as the connectors reach it: the superuser, no TLS. */
    static DatabaseEndpoint endpointOf(EmbeddedPostgres server) {
        return new DatabaseEndpoint(
                "127.0.0.1",
                server.getPort(),
                "postgres",
                "postgres",
                null,
                new TlsSettings(SslMode.DISABLE, "", "", "", null),
                Duration.ofSeconds(10));
    }

    @Test
    void theSessionSettingsComeOnTopOfThePinnedSearchPath() throws SQLException {
        Properties props = new Properties();
        PGProperty.REPLICATION.set(props, "database");
        PGProperty.PREFER_QUERY_MODE.set(props, "simple");
        PGProperty.OPTIONS.set(props, SessionSettings.OPTIONS);
        try (Connection c = endpoint().connect("replication-connection-test", props)) {
            assertEquals(DatabaseEndpoint.PINNED_SEARCH_PATH, show(c, "search_path"));
            assertEquals("ISO, MDY", show(c, "DateStyle"));
            assertEquals("iso_8601", show(c, "IntervalStyle"));
        }
    }

    @Test
    void itNamesTheServerItReplicatesFrom() throws SQLException {
        ReplicationConnection replication = ReplicationConnection.open(endpoint(), "replication-connection-test");
        try (Connection c = server.getPostgresDatabase().getConnection();
                Statement st = c.createStatement();
                ResultSet rs = st.executeQuery(
                        "SELECT system_identifier::text, timeline_id FROM pg_control_system(), pg_control_checkpoint()")) {
            rs.next();
            assertEquals(new ServerIdentity(rs.getString(1), rs.getLong(2)), replication.identity());
            assertTrue(replication.identity().timeline() >= 1);
        } finally {
            replication.abort();
        }
    }

    @Test
    void theSlotIsKnownToBeServedByThisSessionsWalsenderUntilItIsGone() throws Exception {
        try (Connection c = server.getPostgresDatabase().getConnection();
                Statement st = c.createStatement()) {
            st.execute("CREATE PUBLICATION liveness_pub FOR ALL TABLES");
            st.execute("SELECT pg_create_logical_replication_slot('liveness_slot', 'pgoutput')");
            ReplicationConnection replication = ReplicationConnection.open(endpoint(), "replication-connection-test");
            try {
                replication.start(new ReplicationConnection.StreamRequest(
                        "liveness_slot",
                        "liveness_pub",
                        ProtocolVersion.forServer(170_000),
                        false,
                        false,
                        OriginFilter.NONE, // the server takes pgoutput's origin option (16+)
                        Duration.ofSeconds(10),
                        Lsn.INVALID));
                SlotLiveness liveness = new SlotLiveness(c, "liveness_slot", replication.walsenderPid());
                awaitProblem(liveness, problem -> problem == null);

                st.execute("SELECT pg_terminate_backend(" + replication.walsenderPid() + ")");
                String gone = awaitProblem(liveness, problem -> problem != null);
                assertTrue(gone.startsWith("no walsender holds slot liveness_slot"), gone);
            } finally {
                replication.abort();
            }
        }
    }

    /** Asks until the answer is the expected kind: the walsender takes the slot, and lets go, a moment later. */
    private static String awaitProblem(SlotLiveness liveness, Predicate<String> expected) throws SQLException {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(20);
        String problem = liveness.problem();
        while (!expected.test(problem)) {
            assertTrue(System.nanoTime() < deadline, "still: " + problem);
            Thread.onSpinWait();
            problem = liveness.problem();
        }
        return problem;
    }

    private static String show(Connection c, String setting) throws SQLException {
        try (Statement st = c.createStatement();
                ResultSet rs = st.executeQuery("SHOW " + setting)) {
            rs.next();
            return rs.getString(1);
        }
    }
}
