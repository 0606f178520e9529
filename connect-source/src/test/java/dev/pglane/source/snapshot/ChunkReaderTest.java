package dev.pglane.source.snapshot;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.pglane.source.pgoutput.RelationColumn;
import dev.pglane.source.pgoutput.TupleData;
import dev.pglane.source.seal.MessageSeal;
import io.zonky.test.db.postgres.embedded.EmbeddedPostgres;
import java.io.IOException;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.connect.errors.ConnectException;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * {@link ChunkReader} against a real server whose commits wait for a synchronous standby that never connects: a
 * transaction's commit record is then in the WAL, before the chunk's low watermark, while the transaction is still
 * running and invisible to new snapshots. The chunk must wait for it, or it would send the row as it was before a
 * change that the stream passed before the window opened.
 */
class ChunkReaderTest {
    private static final MessageSeal SEAL = MessageSeal.configured("t", "a key of sixteen characters");
    private static EmbeddedPostgres server;

    @BeforeAll
    static void startServer() throws IOException, SQLException {
        server = EmbeddedPostgres.builder()
                .setServerConfig("wal_level", "logical")
                .setServerConfig("synchronous_standby_names", "pglane_never_connects")
                .start();
        try (Connection c = connection(true);
                Statement st = c.createStatement()) {
            st.execute("CREATE TABLE t (id integer PRIMARY KEY, v integer NOT NULL)");
            st.execute("INSERT INTO t VALUES (1, 0)");
        }
    }

    @AfterAll
    static void stopServer() throws IOException {
        server.close();
    }

    @Test
    void aChunkWaitsForATransactionWhoseCommitIsLoggedButNotYetVisible() throws Exception {
        try (Connection writer = connection(false);
                Connection reading = connection(true);
                Connection observer = connection(true)) {
            int writerPid = pid(writer);
            int readerPid = pid(reading);
            writer.setAutoCommit(false);
            long xid;
            try (Statement st = writer.createStatement();
                    ResultSet rs = st.executeQuery(
                            "UPDATE t SET v = 1 WHERE id = 1 RETURNING pg_catalog.pg_current_xact_id()::text")) {
                rs.next();
                xid = Long.parseLong(rs.getString(1));
            }
            // the newest xid, and nothing later ends before it: no snapshot lists it among those running
            CompletableFuture<Void> commit = CompletableFuture.runAsync(() -> {
                try {
                    writer.commit();
                } catch (SQLException e) {
                    throw new IllegalStateException(e);
                }
            });
            awaitSyncRepWait(observer, writerPid);

            ChunkRead read = new ChunkRead(new Chunk(table(reading), 0, null, null, null, true), 1);
            ChunkReader reader = new ChunkReader(reading, SEAL, Long.MAX_VALUE);
            CompletableFuture<Void> reading1 = CompletableFuture.runAsync(() -> {
                try {
                    reader.read(read, new Watermark("t", 1, 1, false), new Watermark("t", 1, 1, true));
                } catch (SQLException | InterruptedException e) {
                    throw new IllegalStateException(e);
                }
            });
            // a read that does not wait finishes; one that waits polls the running transactions until released
            await(
                    "the read to finish or to wait",
                    () -> reading1.isDone()
                            || String.valueOf(activity(observer, "query", readerPid))
                                    .contains("pg_snapshot_xip"));
            try (Statement st = observer.createStatement()) {
                // ends the wait: the transaction, committed locally, ends and becomes visible
                st.execute("SELECT pg_catalog.pg_cancel_backend(" + writerPid + ")");
            }
            commit.get(30, TimeUnit.SECONDS);
            reading1.get(30, TimeUnit.SECONDS);

            assertTrue(read.snapshot().sees(xid), () -> "the chunk's snapshot " + read.snapshot() + " sees " + xid);
            List<TupleData> rows = read.rows();
            assertEquals(1, rows.size());
            assertEquals("1", rows.get(0).text(1), "the chunk holds the committed update");
        }
    }

    private static void awaitSyncRepWait(Connection observer, int pid) throws SQLException, InterruptedException {
        await(
                "the writer's commit to wait for the synchronous standby",
                () -> "SyncRep".equals(activity(observer, "wait_event", pid)));
    }

    /** {@code column} (a name this test writes) of {@code pid}'s row in pg_stat_activity, or null. */
    private static String activity(Connection observer, String column, int pid) throws SQLException {
        try (PreparedStatement st =
                observer.prepareStatement("SELECT " + column + " FROM pg_catalog.pg_stat_activity WHERE pid = ?")) {
            st.setInt(1, pid);
            try (ResultSet rs = st.executeQuery()) {
                return rs.next() ? rs.getString(1) : null;
            }
        }
    }

    private interface Condition {
        boolean holds() throws SQLException;
    }

    /** Polls {@code condition} every 10 ms until it holds, failing after 30 s. */
    private static void await(String what, Condition condition) throws SQLException, InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
        while (!condition.holds()) {
            if (System.nanoTime() >= deadline) {
                throw new AssertionError("waited 30 s for " + what);
            }
            Thread.sleep(10);
        }
    }

    @Test
    void aKeylessTableLargerThanItsBoundStopsTheSnapshotNamingIt() throws Exception {
        try (Connection c = connection(true);
                Statement st = c.createStatement()) {
            st.execute("CREATE TABLE keyless (v text)");
            st.execute("INSERT INTO keyless SELECT repeat('x', 99) FROM generate_series(1, 100)");
        }
        try (Connection reading = connection(true)) {
            SnapshotTable keyless = keyless(reading);
            ChunkRead whole = new ChunkRead(new Chunk(keyless, 0, null, null, null, true), 1);
            new ChunkReader(reading, SEAL, 10_000).read(whole, watermark(1, false), watermark(1, true));
            assertEquals(100, whole.rows().size(), "100 rows of 100 bytes of COPY text each");

            ChunkRead tooLarge = new ChunkRead(new Chunk(keyless, 0, null, null, null, true), 2);
            ConnectException e = assertThrows(
                    ConnectException.class,
                    () -> new ChunkReader(reading, SEAL, 9_999)
                            .read(tooLarge, watermark(2, false), watermark(2, true)));
            assertTrue(
                    e.getMessage()
                            .startsWith("The snapshot of table public.keyless stopped after 99 rows: it has no"
                                    + " primary key or replica identity index"),
                    e.getMessage());
            assertTrue(e.getMessage().contains("snapshot.keyless.max.bytes (9999 bytes of COPY text)"), e.getMessage());
            assertEquals(null, tooLarge.rows(), "nothing handed over");
        }
    }

    private static Watermark watermark(long serial, boolean high) {
        return new Watermark("t", 1, serial, high);
    }

    private static SnapshotTable keyless(Connection c) throws SQLException {
        return table(c, "keyless", List.of(new RelationColumn("v", 25, -1, false)), List.of());
    }

    private static SnapshotTable table(Connection c) throws SQLException {
        return table(
                c,
                "t",
                List.of(new RelationColumn("id", 23, -1, true), new RelationColumn("v", 23, -1, false)),
                List.of(new SnapshotTable.KeyColumn("id", "integer")));
    }

    /** Table {@code public.<name>} as the snapshot describes it. */
    private static SnapshotTable table(
            Connection c, String name, List<RelationColumn> columns, List<SnapshotTable.KeyColumn> key)
            throws SQLException {
        int oid;
        try (PreparedStatement st =
                c.prepareStatement("SELECT ('public.' || ?)::pg_catalog.regclass::pg_catalog.oid")) {
            st.setString(1, name);
            try (ResultSet rs = st.executeQuery()) {
                rs.next();
                oid = rs.getInt(1);
            }
        }
        return new SnapshotTable(oid, "public", name, 'd', columns, key, 0, 0, false, null);
    }

    private static int pid(Connection c) throws SQLException {
        try (Statement st = c.createStatement();
                ResultSet rs = st.executeQuery("SELECT pg_catalog.pg_backend_pid()")) {
            rs.next();
            return rs.getInt(1);
        }
    }

    /** A connection whose commits wait for the standby, or ({@code local}) do not. */
    @Test
    void aChunkNamesTheTransactionsItWaitsForWithoutTheirSql() throws Exception {
        try (Connection other = connection(true);
                Connection reading = connection(true)) {
            other.setAutoCommit(false);
            long xid;
            try (Statement st = other.createStatement();
                    ResultSet rs = st.executeQuery("SELECT pg_catalog.txid_current(), 'hunter2' AS password")) {
                rs.next();
                xid = rs.getLong(1);
            }
            String described = new ChunkReader(reading, SEAL, Long.MAX_VALUE).describe(Set.of(xid));
            assertTrue(described.contains("idle in transaction"), described);
            assertTrue(described.contains("role "), described);
            assertFalse(described.contains("hunter2"), "another application's SQL stays out of the log: " + described);
            other.rollback();
        }
    }

    private static Connection connection(boolean local) throws SQLException {
        Connection c = server.getPostgresDatabase().getConnection();
        try (Statement st = c.createStatement()) {
            // the embedded server's default is off, which never waits
            st.execute("SET synchronous_commit = " + (local ? "local" : "on"));
        }
        return c;
    }
}
