package dev.pglane.source.reader;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.pglane.source.emit.FailureSlot;
import dev.pglane.wire.Lsn;
import io.zonky.test.db.postgres.embedded.EmbeddedPostgres;
import java.io.IOException;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The restart-point watch on a real server: it logs the running transactions once the WAL has grown by its interval,
 * and the slot's restart_lsn follows that record as soon as the slot is confirmed past it, instead of waiting for
 * the server's own record every 15 s.
 */
class RestartPointsTest {
    private static final long INTERVAL = 1024 * 1024;
    private static EmbeddedPostgres server;

    @BeforeAll
    static void startServer() throws IOException, SQLException {
        // the embedded server commits asynchronously by default, and the slot advances only over flushed WAL: the
        // commit that confirms a record must flush it; no autovacuum, whose transactions would be running ones
        server = EmbeddedPostgres.builder()
                .setServerConfig("wal_level", "logical")
                .setServerConfig("synchronous_commit", "on")
                .setServerConfig("autovacuum", "off")
                .start();
        try (Connection c = server.getPostgresDatabase().getConnection();
                Statement st = c.createStatement()) {
            st.execute("CREATE TABLE filler (id int, pad text)");
            st.execute("CREATE ROLE plain LOGIN");
        }
    }

    @AfterAll
    static void stopServer() throws IOException {
        server.close();
    }

    @Test
    void aRecordOnceTheWalGrewByTheIntervalAndTheSlotsRestartPointFollowsIt() throws SQLException {
        RestartPoints watch = new RestartPoints(
                "restart-test", INTERVAL, name -> server.getPostgresDatabase().getConnection(), new FailureSlot());
        try (Connection c = server.getPostgresDatabase().getConnection();
                Statement st = c.createStatement()) {
            assertNull(RestartPoints.unable(c), "a superuser on PostgreSQL 16+ may");
            st.execute("SELECT pg_create_logical_replication_slot('restart_points', 'pgoutput')");
            Lsn created = restartAfterConfirming(st);
            Lsn first = watch.tick(c);
            assertNotNull(first, "the first look logs one");
            assertNull(watch.tick(c), "no record while the WAL has not grown by the interval");

            // The server takes a record as the next restart point only once the one before it is confirmed: the
            // restart point follows the records one behind, as the source confirms what Kafka acknowledged.
            Lsn second = grow(c, st, watch, first);
            assertAtOrPast(restartAfterConfirming(st), first);
            Lsn third = grow(c, st, watch, second);
            assertAtOrPast(restartAfterConfirming(st), second);
            assertTrue(third.compareTo(second) > 0);
            assertTrue(created.compareTo(first) < 0, "without the records it would have stayed at " + created);
            st.execute("SELECT pg_drop_replication_slot('restart_points')");
        }
    }

    /** Writes some 3 MB of WAL; the watch then logs a record past the interval. */
    private static Lsn grow(Connection c, Statement st, RestartPoints watch, Lsn last) throws SQLException {
        st.execute("INSERT INTO filler SELECT g, repeat('x', 1000) FROM generate_series(1, 3000) g");
        Lsn next = watch.tick(c);
        assertNotNull(next, "3 MB of WAL later");
        assertTrue(next.asLong() - last.asLong() >= INTERVAL, last + " then " + next);
        return next;
    }

    /**
     * {@code restart} is the start of the record whose end {@code record} is (what pg_log_standby_snapshot() returns;
     * such a record of no running transaction takes some 50 bytes), or later.
     */
    private static void assertAtOrPast(Lsn restart, Lsn record) {
        assertTrue(restart.asLong() > record.asLong() - 256, "restart_lsn " + restart + " before the record " + record);
    }

    /** Confirms the slot up to the server's position, as the source does once Kafka has it, and reads restart_lsn. */
    private static Lsn restartAfterConfirming(Statement st) throws SQLException {
        // the record is in WAL buffers; a transaction's commit flushes it, and a slot advances only over flushed WAL
        st.execute("INSERT INTO filler VALUES (0, 'flush')");
        st.execute("SELECT pg_replication_slot_advance('restart_points', pg_current_wal_flush_lsn())");
        try (ResultSet rs = st.executeQuery(
                "SELECT restart_lsn::text FROM pg_replication_slots WHERE slot_name = 'restart_points'")) {
            rs.next();
            return Lsn.parse(rs.getString(1));
        }
    }

    @Test
    void aRoleWithoutTheGrantIsToldHowToGetIt() throws SQLException {
        try (Connection c = server.getDatabase("plain", "postgres").getConnection()) {
            String unable = RestartPoints.unable(c);
            assertEquals(
                    "the role may not execute pg_log_standby_snapshot(); GRANT EXECUTE ON FUNCTION"
                            + " pg_catalog.pg_log_standby_snapshot() TO it, or set slot.restart.interval.bytes=0",
                    unable);
            assertNull(RestartPoints.start("restart-test", INTERVAL, c, name -> c, new FailureSlot()));
        }
    }
}
