package dev.pglane.sink.progress;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.pglane.connect.database.DatabaseEndpoint;
import dev.pglane.sink.admit.ConsumedTopics;
import dev.pglane.sink.admit.NeighbourSinks;
import dev.pglane.sink.apply.TargetServer;
import dev.pglane.sink.target.TableName;
import dev.pglane.wire.Lsn;
import dev.pglane.wire.marker.Marker;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
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

    private static ProgressTable table(TableName name, String sinkName) {
        return new ProgressTable(name, sinkName, "shop", new SourceIdentityCheck("shop"), null);
    }

    /** A pipeline's session: what the sink itself opens, with its pinned search path. */
    private static Connection session(String user) throws SQLException {
        DatabaseEndpoint admin = target.endpoint();
        return new DatabaseEndpoint(
                        admin.host(), admin.port(), admin.database(), user, null, admin.tls(), admin.connectTimeout())
                .connect("progress-log-test");
    }

    @Test
    void tableStartsEmptyThenFollowsCommitsNotRollbacks() throws SQLException {
        ProgressLog log = table(new TableName("public", "progress_a"), "sink-a");
        try (Connection c = connect()) {
            log.prepare(c);
            log.prepare(c); // idempotent: a restarted task prepares again
            assertEquals(AppliedPosition.NONE, log.claim(c));

            AppliedPosition first = new AppliedPosition(Lsn.parse("0/16B3748"), 1_700_000_000_123_456L, 571);
            applyAndEnd(c, log, first, true);
            assertEquals(first, log.claim(c));

            applyAndEnd(c, log, new AppliedPosition(Lsn.parse("0/16B9000"), 1_700_000_001_000_000L, 572), false);
            assertEquals(first, log.claim(c), "a rolled-back transaction leaves the position");

            AppliedPosition second = new AppliedPosition(Lsn.parse("0/16B9100"), 1_700_000_002_000_000L, 573);
            applyAndEnd(c, log, second, true);
            assertEquals(second, log.claim(c), "the connection goes on after a commit sent with the progress");
        }
    }

    @Test
    void tableRowsAreKeyedBySinkAndSourceServer() throws SQLException {
        TableName table = new TableName("public", "progress_b");
        ProgressLog one = table(table, "sink-a");
        ProgressLog other = table(table, "sink-b");
        try (Connection c = connect()) {
            one.prepare(c);
            other.prepare(c);
            applyAndEnd(c, one, new AppliedPosition(Lsn.parse("1/0"), 5, 9), true);
            assertEquals(Lsn.parse("1/0"), one.claim(c).endLsn());
            assertEquals(AppliedPosition.NONE, other.claim(c));
        }
    }

    @Test
    void aProgressRowDeletedWhileTheSinkRunsComesBackWithTheNextCommit() throws SQLException {
        ProgressLog log = table(new TableName("public", "progress_c"), "sink-a");
        try (Connection c = connect();
                Statement st = c.createStatement()) {
            log.prepare(c);
            st.execute("DELETE FROM public.progress_c");
            AppliedPosition position = new AppliedPosition(Lsn.parse("0/10"), 1_700_000_000_000_000L, 1);
            applyAndEnd(c, log, position, true);
            assertEquals(position, log.claim(c));
        }
    }

    @Test
    void whenRecordingFailsNothingIsCommitted() throws SQLException {
        ProgressLog log = table(new TableName("public", "progress_d"), "sink-a");
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
            assertEquals(AppliedPosition.NONE, log.claim(control));
            log.setUpSession(worker0, 0);
            log.setUpSession(worker1, 1);

            applyAndEnd(worker0, log, new AppliedPosition(Lsn.parse("0/3000"), 1_700_000_000_000_000L, 10), true);
            applyAndEnd(worker1, log, new AppliedPosition(Lsn.parse("0/5000"), 1_700_000_000_500_000L, 11), true);
            assertEquals(Lsn.parse("0/5000"), log.claim(control).endLsn());

            // A transaction rolled back before its commit turn (a retry, a deadlock victim) never recorded.
            worker0.setAutoCommit(false);
            try (Statement st = worker0.createStatement()) {
                st.execute("INSERT INTO public.applied_rows VALUES (12)");
            }
            worker0.rollback();
            assertEquals(Lsn.parse("0/5000"), log.claim(control).endLsn());
        }
    }

    @Test
    void aTaggedTableKeepsTheProgressInTheTableAndCommitsUnderAnOriginOfThePool() throws SQLException {
        ProgressLog log = new OriginTaggedProgress(table(new TableName("public", "progress_tagged"), "sink-t"));
        try (Connection control = connect();
                Connection worker1 = connect()) {
            log.prepare(control);
            log.prepare(control);
            log.setUpSession(worker1, 1);
            assertEquals("t", value(worker1, "SELECT pg_replication_origin_session_is_setup()"));
            Lsn before = Lsn.parse(value(control, "SELECT pg_current_wal_insert_lsn()"));
            AppliedPosition position = new AppliedPosition(Lsn.parse("0/9000"), 1_700_000_000_000_000L, 31);
            applyAndEnd(worker1, log, position, true);
            assertEquals(position, log.claim(control), "the table holds the position");
            // the commit went out under an origin of the pool, which followed it (local_lsn); no remote position
            assertEquals(
                    "1",
                    value(
                            control,
                            "SELECT count(*) FROM pg_replication_origin_status WHERE external_id LIKE"
                                    + " 'pglane:apply:%' AND remote_lsn = '0/0' AND local_lsn > '" + before + "'"));
        }
    }

    @Test
    void anOriginHeldByAnotherSessionIsToldFromOtherFailures() throws SQLException {
        ProgressLog first = new ReplicationOrigins("sink-h", "shop", 1);
        ProgressLog second = new ReplicationOrigins("sink-h", "shop", 1);
        try (Connection a = connect();
                Connection b = connect()) {
            first.prepare(a);
            first.setUpSession(a, 0);
            SQLException e = assertThrows(SQLException.class, () -> second.setUpSession(b, 0));
            assertTrue(OriginSessions.heldByAnotherSession(e), e::getMessage);
            assertFalse(OriginSessions.heldByAnotherSession(new SQLException("lock timeout", "55P03")));
        }
    }

    @Test
    void aSecondInstanceTakesAnotherOriginOfThePoolAndTheTableFencesTheOneBehind() throws SQLException {
        TableName name = new TableName("public", "progress_spare");
        ProgressLog zombie = new OriginTaggedProgress(table(name, "sink-s"));
        ProgressLog live = new OriginTaggedProgress(table(name, "sink-s"));
        try (Connection z = connect();
                Connection l = connect()) {
            zombie.prepare(z);
            zombie.setUpSession(z, 0);
            live.setUpSession(l, 0);
            assertEquals("t", value(l, "SELECT pg_replication_origin_session_is_setup()"));
            AppliedPosition applied = new AppliedPosition(Lsn.parse("0/A000"), 1_700_000_000_000_000L, 41);
            applyAndEnd(l, live, applied, true);
            SQLException e = assertThrows(SQLException.class, () -> applyAndEnd(z, zombie, applied, true));
            assertTrue(e.getMessage().startsWith("Another task applies to this target as sink sink-s"), e::getMessage);
        }
    }

    @Test
    void whenTheServerHasNoOriginStateLeftTheErrorSaysWhatToChange() throws SQLException {
        ProgressLog log = new OriginTaggedProgress(table(new TableName("public", "progress_full"), "sink-full"));
        List<Connection> sessions = new ArrayList<>();
        try {
            SQLException full = null;
            for (int i = 0; i <= 10 && full == null; i++) { // the server's max_replication_slots: 10
                Connection c = connect();
                sessions.add(c);
                try {
                    log.setUpSession(c, i);
                } catch (SQLException e) {
                    full = e;
                }
            }
            assertTrue(full != null, "an eleventh origin found no state");
            assertEquals("53400", full.getSQLState());
            assertTrue(full.getMessage().contains("could not find free replication state slot"), full::getMessage);
            assertTrue(full.getMessage().contains("raise max_replication_slots"), full::getMessage);
            assertTrue(full.getMessage().contains("or set apply.origin=false"), full::getMessage);
        } finally {
            for (Connection c : sessions) {
                c.close();
            }
            // an origin keeps its state until dropped: the other tests need theirs
            target.execute("SELECT pg_replication_origin_drop(roname) FROM pg_replication_origin"
                    + " WHERE roname LIKE 'pglane:apply:%'");
        }
    }

    private static String value(Connection c, String sql) throws SQLException {
        try (Statement st = c.createStatement();
                ResultSet rs = st.executeQuery(sql)) {
            rs.next();
            return rs.getString(1);
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

    @Test
    void aSecondTaskUnderTheSameNameCannotApplyWhatTheFirstApplied() throws SQLException {
        TableName name = new TableName("public", "progress_fenced");
        ProgressLog first = table(name, "sink-f");
        ProgressLog zombie = table(name, "sink-f");
        try (Connection a = connect();
                Connection b = connect()) {
            first.prepare(a);
            zombie.prepare(b);
            AppliedPosition applied = new AppliedPosition(Lsn.parse("0/5000"), 1_700_000_000_000_000L, 900);
            applyAndEnd(a, first, applied, true);

            for (AppliedPosition again : List.of(
                    applied.withSource(SourceIdentity.UNKNOWN),
                    new AppliedPosition(Lsn.parse("0/4000"), 1_699_999_999_000_000L, 899))) {
                SQLException e = assertThrows(SQLException.class, () -> applyAndEnd(b, zombie, again, true));
                assertTrue(
                        e.getMessage().startsWith("Another task applies to this target as sink sink-f"), e::getMessage);
                assertTrue(e.getMessage().contains("end LSN " + again.endLsn()), e::getMessage);
                b.rollback();
                b.setAutoCommit(true);
            }
            assertEquals(applied, first.claim(a), "the position never moves back");
            assertEquals(List.of("900"), target.rows("SELECT xid FROM public.applied_rows WHERE xid IN (899, 900)"));
        }
    }

    /**
     * A zombie of an earlier assignment that is ahead of its replacement: the position alone would let it commit what
     * the replacement has not reached yet, and then fence the replacement. The claim fences the zombie instead.
     */
    @Test
    void onceAReplacementClaimedTheRowAnEarlierInstanceCommitsNothingEvenAhead() throws SQLException {
        TableName name = new TableName("public", "progress_claimed");
        ProgressLog zombie = table(name, "sink-z");
        ProgressLog replacement = table(name, "sink-z");
        try (Connection z = connect();
                Connection r = connect()) {
            zombie.prepare(z);
            assertEquals(AppliedPosition.NONE, zombie.claim(z));
            AppliedPosition first = new AppliedPosition(Lsn.parse("0/7000"), 1_700_000_000_000_000L, 700);
            applyAndEnd(z, zombie, first, true);

            replacement.prepare(r);
            assertEquals(first, replacement.claim(r), "the replacement starts where the zombie had got to");
            AppliedPosition ahead = new AppliedPosition(Lsn.parse("0/8000"), 1_700_000_001_000_000L, 701);
            SQLException e = assertThrows(SQLException.class, () -> applyAndEnd(z, zombie, ahead, true));
            assertTrue(e.getMessage().startsWith("Another task applies to this target as sink sink-z"), e::getMessage);
            assertTrue(
                    e.getMessage()
                            .contains("a newer instance of the task claimed the row (owner epoch 2, this"
                                    + " instance's 1)"),
                    e::getMessage);
            z.rollback();
            z.setAutoCommit(true);

            applyAndEnd(r, replacement, ahead, true);
            assertEquals(ahead, replacement.claim(r));
            assertEquals(
                    List.of("700", "701"),
                    target.rows("SELECT xid FROM public.applied_rows WHERE xid IN (700, 701)" + " ORDER BY xid"));
        }
    }

    @Test
    void theSourceServerIsRecordedWithTheProgress() throws SQLException {
        SourceIdentityCheck identity = new SourceIdentityCheck("shop");
        ProgressLog log =
                new ProgressTable(new TableName("public", "progress_identity"), "sink-i", "shop", identity, null);
        try (Connection c = connect()) {
            log.prepare(c);
            assertEquals(SourceIdentity.UNKNOWN, log.claim(c).source());
            identity.observe(new Marker.Start(3, 0L, Lsn.parse("0/10"), "7311111111111111111", 2L));
            applyAndEnd(c, log, new AppliedPosition(Lsn.parse("0/6000"), 0L, 1), true);
            assertEquals(
                    new SourceIdentity("7311111111111111111", 2L), log.claim(c).source());
        }
    }

    /** What the README promises: SELECT, INSERT and UPDATE on an existing table, nothing else. */
    @Test
    void aRoleWithOnlyRowPrivilegesOnAnExistingTableRecordsProgress() throws SQLException {
        target.execute(
                "CREATE ROLE progress_writer LOGIN",
                "CREATE SCHEMA progress_owned",
                "CREATE TABLE progress_owned.progress (sink_name text NOT NULL, source_server text NOT NULL,"
                        + " end_lsn pg_lsn NOT NULL, commit_ts timestamptz, xid bigint NOT NULL,"
                        + " applied_at timestamptz NOT NULL DEFAULT now(), source_system_id text, source_timeline bigint,"
                        + " owner_epoch bigint NOT NULL DEFAULT 0, table_group text,"
                        + " PRIMARY KEY (sink_name, source_server))",
                "CREATE TABLE progress_owned.applied_rows (xid bigint)",
                "GRANT USAGE ON SCHEMA progress_owned TO progress_writer",
                "GRANT SELECT, INSERT, UPDATE ON progress_owned.progress TO progress_writer",
                "GRANT INSERT ON progress_owned.applied_rows TO progress_writer");
        ProgressLog log = table(new TableName("progress_owned", "progress"), "sink-p");
        try (Connection c = session("progress_writer")) {
            log.prepare(c);
            c.setAutoCommit(false);
            try (Statement st = c.createStatement()) {
                st.execute("INSERT INTO progress_owned.applied_rows VALUES (77)");
            }
            AppliedPosition position = new AppliedPosition(Lsn.parse("0/7000"), 1_700_000_000_000_000L, 77);
            log.recordAndCommit(c, position);
            c.setAutoCommit(true);
            assertEquals(position, log.claim(c));
        }
    }

    @Test
    void aTableOfAnEarlierVersionGetsTheNewColumnsFromItsOwner() throws SQLException {
        target.execute("CREATE TABLE public.progress_old (sink_name text NOT NULL, source_server text NOT NULL,"
                + " end_lsn pg_lsn NOT NULL, commit_ts timestamptz, xid bigint NOT NULL,"
                + " applied_at timestamptz NOT NULL DEFAULT now(), PRIMARY KEY (sink_name, source_server))");
        ProgressLog log = table(new TableName("public", "progress_old"), "sink-o");
        try (Connection c = session("postgres")) {
            log.prepare(c);
            applyAndEnd(c, log, new AppliedPosition(Lsn.parse("0/8000"), 0L, 5), true);
        }
        assertEquals(
                List.of("source_system_id", "source_timeline", "owner_epoch", "table_group"),
                target.rows("SELECT attname FROM pg_attribute WHERE attrelid = 'public.progress_old'::regclass"
                        + " AND attnum > 6 ORDER BY attnum"));
    }

    /**
     * Each sink records its table group with its row, and reads the others of the same source: what lets a group tell
     * a topic two sinks apply, or none.
     */
    @Test
    void sinksOfOneSourceReadEachOthersTableGroups() throws SQLException {
        TableName name = new TableName("public", "progress_groups");
        SourceIdentityCheck identity = new SourceIdentityCheck("shop");
        ProgressTable orders =
                new ProgressTable(name, "orders", "shop", identity, ConsumedTopics.listed(List.of("shop.public.a")));
        ProgressTable rest =
                new ProgressTable(name, "rest", "shop", identity, ConsumedTopics.matching("shop\\.public\\.[b-z]"));
        ProgressTable whole = new ProgressTable(name, "whole", "shop", identity, null);
        ProgressTable otherSource = new ProgressTable(name, "whole", "other", new SourceIdentityCheck("other"), null);
        try (Connection c = connect()) {
            for (ProgressTable sink : List.of(orders, rest, whole, otherSource)) {
                sink.prepare(c); // the group is there before the claim: another sink may read it meanwhile
            }
            NeighbourSinks seen = orders.neighbours(c);
            assertEquals(
                    "[rest (topics.regex shop\\.public\\.[b-z]), whole (whole transactions)]",
                    seen.all().toString());
            assertEquals(List.of("whole"), names(seen.applying("shop.public.a")));
            assertEquals(List.of("rest", "whole"), names(seen.applying("shop.public.c")));
            assertEquals(List.of("orders", "rest"), names(whole.neighbours(c).all()), "one source's sinks only");
        }
    }

    private static List<String> names(List<NeighbourSinks.Neighbour> sinks) {
        return sinks.stream().map(NeighbourSinks.Neighbour::sink).toList();
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
