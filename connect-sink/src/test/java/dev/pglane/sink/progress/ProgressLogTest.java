package dev.pglane.sink.progress;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.pglane.sink.TableName;
import dev.pglane.sink.apply.TargetServer;
import dev.pglane.wire.Lsn;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;

/** Both progress stores against a real PostgreSQL: the position commits and rolls back with the changes. */
@Timeout(value = 120, unit = TimeUnit.SECONDS)
class ProgressLogTest {
    @RegisterExtension
    static final TargetServer target = new TargetServer();

    private static Connection connect() throws SQLException {
        return target.connect();
    }

    @Test
    void tableStartsEmptyThenFollowsCommitsNotRollbacks() throws SQLException {
        ProgressLog log = new ProgressTable(new TableName("public", "progress_a"), "sink-a", "shop");
        try (Connection c = connect()) {
            log.prepare(c);
            log.prepare(c); // idempotent: a restarted task prepares again
            assertEquals(AppliedPosition.NONE, log.load(c));

            AppliedPosition first = new AppliedPosition(Lsn.parse("0/16B3748"), 1_700_000_000_123_456L, 571);
            applyAndEnd(c, log, first, true);
            assertEquals(first, log.load(c));

            applyAndEnd(c, log, new AppliedPosition(Lsn.parse("0/16B9000"), 1_700_000_001_000_000L, 572), false);
            assertEquals(first, log.load(c), "a rolled-back transaction leaves the position");

            AppliedPosition second = new AppliedPosition(Lsn.parse("0/16B9100"), 1_700_000_002_000_000L, 573);
            applyAndEnd(c, log, second, true);
            assertEquals(second, log.load(c), "the connection goes on after a commit sent with the progress");
        }
    }

    @Test
    void tableRowsAreKeyedBySinkAndSourceServer() throws SQLException {
        TableName table = new TableName("public", "progress_b");
        ProgressLog one = new ProgressTable(table, "sink-a", "shop");
        ProgressLog other = new ProgressTable(table, "sink-b", "shop");
        try (Connection c = connect()) {
            one.prepare(c);
            other.prepare(c);
            applyAndEnd(c, one, new AppliedPosition(Lsn.parse("1/0"), 5, 9), true);
            assertEquals(Lsn.parse("1/0"), one.load(c).endLsn());
            assertEquals(AppliedPosition.NONE, other.load(c));
        }
    }

    @Test
    void aProgressRowDeletedWhileTheSinkRunsComesBackWithTheNextCommit() throws SQLException {
        ProgressLog log = new ProgressTable(new TableName("public", "progress_c"), "sink-a", "shop");
        try (Connection c = connect();
                Statement st = c.createStatement()) {
            log.prepare(c);
            st.execute("DELETE FROM public.progress_c");
            AppliedPosition position = new AppliedPosition(Lsn.parse("0/10"), 1_700_000_000_000_000L, 1);
            applyAndEnd(c, log, position, true);
            assertEquals(position, log.load(c));
        }
    }

    @Test
    void whenRecordingFailsNothingIsCommitted() throws SQLException {
        ProgressLog log = new ProgressTable(new TableName("public", "progress_d"), "sink-a", "shop");
        try (Connection c = connect();
                Statement st = c.createStatement()) {
            log.prepare(c);
            st.execute("DROP TABLE public.progress_d");
            AppliedPosition position = new AppliedPosition(Lsn.parse("0/20"), 0, 4242);
            assertThrows(SQLException.class, () -> applyAndEnd(c, log, position, true));
            c.rollback();
            c.setAutoCommit(true);
            try (ResultSet rs = st.executeQuery("SELECT count(*) FROM public.applied_rows WHERE xid = 4242")) {
                rs.next();
                assertEquals(0, rs.getInt(1), "the change went with the failed progress write");
            }
        }
    }

    @Test
    void originsResumeFromTheHighestWorkerPosition() throws SQLException {
        ProgressLog log = new ReplicationOrigins("sink-o", "shop", 2);
        try (Connection control = connect();
                Connection worker0 = connect();
                Connection worker1 = connect()) {
            log.prepare(control);
            log.prepare(control);
            assertEquals(AppliedPosition.NONE, log.load(control));
            log.setUpSession(worker0, 0);
            log.setUpSession(worker1, 1);

            applyAndEnd(worker0, log, new AppliedPosition(Lsn.parse("0/3000"), 1_700_000_000_000_000L, 10), true);
            applyAndEnd(worker1, log, new AppliedPosition(Lsn.parse("0/5000"), 1_700_000_000_500_000L, 11), true);
            assertEquals(Lsn.parse("0/5000"), log.load(control).endLsn());

            // A transaction rolled back before its commit turn (a retry, a deadlock victim) never recorded.
            worker0.setAutoCommit(false);
            try (Statement st = worker0.createStatement()) {
                st.execute("INSERT INTO public.applied_rows VALUES (12)");
            }
            worker0.rollback();
            assertEquals(Lsn.parse("0/5000"), log.load(control).endLsn());
        }
    }

    @Test
    void barrierMakesEarlierAsynchronousCommitsDurable() throws SQLException {
        try (Connection c = connect();
                Statement st = c.createStatement()) {
            st.execute("SET synchronous_commit = off");
            st.execute("CREATE TABLE IF NOT EXISTS public.barrier_probe (id int)");
            st.execute("INSERT INTO public.barrier_probe VALUES (1)");
            Lsn afterAsyncCommit = walLsn(st, "pg_current_wal_insert_lsn()");
            DurabilityBarrier.run(c);
            assertTrue(c.getAutoCommit());
            Lsn flushed = walLsn(st, "pg_current_wal_flush_lsn()");
            assertTrue(flushed.compareTo(afterAsyncCommit) >= 0, "flushed " + flushed + " < " + afterAsyncCommit);
        }
    }

    private static Lsn walLsn(Statement st, String function) throws SQLException {
        try (ResultSet rs = st.executeQuery("SELECT " + function + "::text")) {
            rs.next();
            return Lsn.parse(rs.getString(1));
        }
    }

    /** One applied transaction: a change, the position, then commit or rollback. */
    private static void applyAndEnd(Connection c, ProgressLog log, AppliedPosition position, boolean commit)
            throws SQLException {
        c.setAutoCommit(false);
        try (Statement st = c.createStatement()) {
            st.execute("CREATE TABLE IF NOT EXISTS public.applied_rows (xid bigint)");
            st.execute("INSERT INTO public.applied_rows VALUES (" + position.xid() + ")");
        }
        if (commit) {
            log.recordAndCommit(c, position);
        } else {
            c.rollback();
        }
        c.setAutoCommit(true);
    }
}
