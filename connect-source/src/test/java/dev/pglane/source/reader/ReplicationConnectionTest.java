package dev.pglane.source.reader;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.pglane.connect.database.DatabaseEndpoint;
import dev.pglane.connect.database.TlsSettings;
import dev.pglane.source.values.SessionSettings;
import io.zonky.test.db.postgres.embedded.EmbeddedPostgres;
import java.io.IOException;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.Properties;
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

    private static String show(Connection c, String setting) throws SQLException {
        try (Statement st = c.createStatement();
                ResultSet rs = st.executeQuery("SHOW " + setting)) {
            rs.next();
            return rs.getString(1);
        }
    }
}
