package dev.pglane.source.cleanup;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.pglane.connect.config.DatabaseSettings;
import dev.pglane.source.PgSourceConfig;
import io.zonky.test.db.postgres.embedded.EmbeddedPostgres;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.HashMap;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * {@link SourceCleanup} on a real server drops only what can be the connector's: not a slot of its name that is
 * physical or another plugin's, and not the publication pglane created while other pgoutput slots may read it.
 */
class SourceCleanupTest {
    private static final String MARK = "created by pglane: dropped with its slot by SourceCleanup";
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

    @Test
    void aPhysicalSlotOfTheConnectorsNameIsNotDropped() throws Exception {
        sql("SELECT pg_create_physical_replication_slot('clean_physical')");
        createdPublication("clean_physical");
        Outcome outcome = clean("clean_physical", false);
        assertFalse(outcome.clean(), outcome.output());
        assertTrue(
                outcome.output().contains("Slot clean_physical is not the connector's: it is a physical slot"),
                outcome.output());
        assertEquals(1, count("pg_replication_slots WHERE slot_name = 'clean_physical'"));
        assertEquals(1, count("pg_publication WHERE pubname = 'clean_physical'"), "nothing was dropped");
        sql("SELECT pg_drop_replication_slot('clean_physical')", "DROP PUBLICATION clean_physical");
    }

    @Test
    void anotherPluginsSlotOfTheConnectorsNameIsNotDropped() throws Exception {
        sql("SELECT pg_create_logical_replication_slot('clean_decoding', 'test_decoding')");
        Outcome outcome = clean("clean_decoding", false);
        assertFalse(outcome.clean(), outcome.output());
        assertTrue(outcome.output().contains("plugin test_decoding"), outcome.output());
        assertEquals(1, count("pg_replication_slots WHERE slot_name = 'clean_decoding'"));
        sql("SELECT pg_drop_replication_slot('clean_decoding')");
    }

    @Test
    void thePublicationStaysWhileAnotherPgoutputSlotMayReadItUnlessForced() throws Exception {
        sql(
                "SELECT pg_create_logical_replication_slot('clean_mine', 'pgoutput')",
                // another pglane source configured with the same publication, stopped for now
                "SELECT pg_create_logical_replication_slot('clean_other', 'pgoutput')");
        createdPublication("clean_mine");

        Outcome kept = clean("clean_mine", false);
        assertFalse(kept.clean(), kept.output());
        assertTrue(kept.output().contains("Dropped slot clean_mine"), kept.output());
        assertTrue(
                kept.output()
                        .contains("Kept publication clean_mine: the database has other pgoutput slots [clean_other]"),
                kept.output());
        assertEquals(1, count("pg_publication WHERE pubname = 'clean_mine'"));

        Outcome forced = clean("clean_mine", true);
        assertTrue(forced.clean(), forced.output());
        assertEquals(0, count("pg_publication WHERE pubname = 'clean_mine'"));
        assertEquals(1, count("pg_replication_slots WHERE slot_name = 'clean_other'"), "the other slot stays");
        sql("SELECT pg_drop_replication_slot('clean_other')");
    }

    @Test
    void theConnectorsOwnSlotAndPublicationGoWhenNoOtherSlotIsThere() throws Exception {
        sql("SELECT pg_create_logical_replication_slot('clean_alone', 'pgoutput')");
        createdPublication("clean_alone");
        Outcome outcome = clean("clean_alone", false);
        assertTrue(outcome.clean(), outcome.output());
        assertEquals(0, count("pg_replication_slots WHERE slot_name = 'clean_alone'"));
        assertEquals(0, count("pg_publication WHERE pubname = 'clean_alone'"));
    }

    @Test
    void theForceArgumentComesBeforeTheConfigFile() {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        int status = SourceCleanup.run(
                new String[] {"config.json", SourceCleanup.FORCE},
                new PrintStream(bytes, true, StandardCharsets.UTF_8));
        assertEquals(2, status);
        assertTrue(bytes.toString(StandardCharsets.UTF_8).contains("usage: SourceCleanup [" + SourceCleanup.FORCE));
    }

    private record Outcome(boolean clean, String output) {}

    private static Outcome clean(String name, boolean force) throws SQLException {
        Map<String, String> props = new HashMap<>();
        props.put("name", name);
        props.put(DatabaseSettings.HOST, "127.0.0.1");
        props.put(DatabaseSettings.PORT, Integer.toString(server.getPort()));
        props.put(DatabaseSettings.NAME, "postgres");
        props.put(DatabaseSettings.USER, "postgres");
        props.put(DatabaseSettings.SSLMODE, "disable");
        props.put(PgSourceConfig.TOPIC_PREFIX, name);
        props.put(PgSourceConfig.SLOT_NAME, name);
        props.put(PgSourceConfig.PUBLICATION_NAME, name);
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        boolean clean = new SourceCleanup(
                        new PgSourceConfig(props), new PrintStream(bytes, true, StandardCharsets.UTF_8), force)
                .clean();
        return new Outcome(clean, bytes.toString(StandardCharsets.UTF_8));
    }

    /** A publication as pglane creates it, with its mark. */
    private static void createdPublication(String name) throws SQLException {
        sql("CREATE PUBLICATION " + name + " FOR ALL TABLES", "COMMENT ON PUBLICATION " + name + " IS '" + MARK + "'");
    }

    private static void sql(String... statements) throws SQLException {
        try (Connection c = server.getPostgresDatabase().getConnection();
                Statement st = c.createStatement()) {
            for (String statement : statements) {
                st.execute(statement);
            }
        }
    }

    private static long count(String from) throws SQLException {
        try (Connection c = server.getPostgresDatabase().getConnection();
                Statement st = c.createStatement();
                ResultSet rs = st.executeQuery("SELECT count(*) FROM pg_catalog." + from)) {
            rs.next();
            return rs.getLong(1);
        }
    }
}
