package dev.pglane.source.snapshot;

import dev.pglane.source.SnapshotSettings;
import dev.pglane.source.pgoutput.TupleData;
import dev.pglane.source.seal.MessageSeal;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.connect.errors.ConnectException;
import org.postgresql.copy.CopyManager;
import org.postgresql.copy.CopyOut;
import org.postgresql.core.BaseConnection;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Reads chunks on one connection of its own, between their watermarks:
 *
 * <ol>
 *   <li>the low watermark L, written non-transactionally, so the stream passes it at once;
 *   <li>a wait until every transaction that was running at L has ended. A transaction becomes visible to new
 *       snapshots only after its commit record is in the WAL (and, with synchronous replication, only once a
 *       standby confirmed it), so without the wait one that committed just before L could still be invisible to the
 *       chunk's snapshot, and the chunk, sent after it, would undo it (see {@link #passNewestXid} for the one that
 *       no list of running transactions names);
 *   <li>a REPEATABLE READ transaction whose first statement fixes and reports its snapshot S, then COPY of the
 *       chunk's rows in text form;
 *   <li>the high watermark H, in a transaction of its own.
 * </ol>
 */
final class ChunkReader {
    private static final Logger log = LoggerFactory.getLogger(ChunkReader.class);
    private static final long WAIT_WARN_NANOS = TimeUnit.SECONDS.toNanos(30);

    private final Connection connection;
    private final MessageSeal seal;
    private final long keylessMaxBytes;
    private final ChunkSql sql;
    private final CopyManager copy;

    /** @param seal the connector's seal, which the watermarks carry */
    /**
     * @param keylessMaxBytes most COPY text a keyless table's one chunk may hold: the chunk is held whole in memory
     */
    ChunkReader(Connection connection, MessageSeal seal, long keylessMaxBytes) throws SQLException {
        this.seal = seal;
        this.keylessMaxBytes = keylessMaxBytes;
        this.connection = connection;
        BaseConnection base = connection.unwrap(BaseConnection.class);
        this.sql = new ChunkSql(base);
        this.copy = new CopyManager(base);
        try (Statement st = connection.createStatement()) {
            st.execute("SET standard_conforming_strings = on");
            // The walsender sends only WAL on disk, and the thread's next chunk waits for H to pass: under
            // synchronous_commit=off H's commit would sit in WAL buffers until the WAL writer's next round.
            st.execute("SET synchronous_commit = local");
        }
    }

    ChunkSql sql() {
        return sql;
    }

    Connection connection() {
        return connection;
    }

    /** Reads {@code read}'s chunk between {@code low} and {@code high} and hands its rows over before H. */
    void read(ChunkRead read, Watermark low, Watermark high) throws SQLException, InterruptedException {
        emit(low, false);
        awaitTransactionsRunningNow(read.chunk);
        connection.setAutoCommit(false);
        try {
            ReadSnapshot snapshot;
            List<TupleData> rows = new ArrayList<>();
            try (Statement st = connection.createStatement()) {
                st.execute("SET TRANSACTION ISOLATION LEVEL REPEATABLE READ, READ ONLY");
                try (ResultSet rs = st.executeQuery("SELECT pg_catalog.pg_current_snapshot()::pg_catalog.text")) {
                    rs.next();
                    snapshot = ReadSnapshot.parse(rs.getString(1));
                }
            }
            int columns = read.chunk.table().columns().size();
            long limit = read.chunk.table().keyed() ? Long.MAX_VALUE : keylessMaxBytes;
            long bytes = 0;
            CopyOut out = copy.copyOut(sql.copy(read.chunk));
            byte[] line;
            while ((line = out.readFromCopy()) != null) {
                bytes += line.length;
                if (bytes > limit) {
                    out.cancelCopy();
                    throw keylessTooLarge(read.chunk.table(), rows.size());
                }
                rows.add(CopyTextRow.parse(line, columns));
            }
            connection.commit();
            read.buffered(rows, snapshot);
        } finally {
            connection.setAutoCommit(true);
        }
        emit(high, true);
    }

    private ConnectException keylessTooLarge(SnapshotTable table, int rows) {
        return new ConnectException("The snapshot of table " + table.name() + " stopped after " + rows + " rows: it"
                + " has no primary key or replica identity index, so it is read as one chunk held in memory, and its"
                + " rows exceed " + SnapshotSettings.SNAPSHOT_KEYLESS_MAX_BYTES + " (" + keylessMaxBytes + " bytes of"
                + " COPY text). Give the table a primary key (or REPLICA IDENTITY USING INDEX on a unique index of"
                + " NOT NULL columns), or raise " + SnapshotSettings.SNAPSHOT_KEYLESS_MAX_BYTES + " with the worker's"
                + " heap (the rows take about three times their text).");
    }

    private void emit(Watermark watermark, boolean transactional) throws SQLException {
        try (PreparedStatement st =
                connection.prepareStatement("SELECT pg_catalog.pg_logical_emit_message(?, ?, ?::pg_catalog.text)")) {
            st.setBoolean(1, transactional);
            st.setString(2, Watermark.PREFIX);
            st.setString(3, seal.seal(Watermark.PREFIX, watermark.content()));
            st.execute();
        }
    }

    /** Waits until no transaction that is running now is still running, warning every 30 s about the ones left. */
    private void awaitTransactionsRunningNow(Chunk chunk) throws SQLException, InterruptedException {
        passNewestXid();
        Set<Long> running = runningTransactions();
        long start = System.nanoTime();
        long warnAt = start + WAIT_WARN_NANOS;
        long pause = 1;
        while (!running.isEmpty()) {
            Thread.sleep(pause);
            pause = Math.min(pause * 2, 100);
            running.retainAll(runningTransactions());
            if (!running.isEmpty() && System.nanoTime() >= warnAt) {
                warnAt = System.nanoTime() + WAIT_WARN_NANOS;
                log.warn(
                        "The snapshot's {} has waited {} s for transactions that were running when it started to end"
                                + " (its rows must include every transaction committed before it); still running: {}",
                        chunk.describe(),
                        TimeUnit.NANOSECONDS.toSeconds(System.nanoTime() - start),
                        describe(running));
            }
        }
    }

    /**
     * Takes an xid and commits it, before the list of running transactions is read. A snapshot lists as running only
     * the xids below its xmax, the newest xid that ended plus one; a newer one is running by that rule alone. So the
     * transaction with the newest xid, its commit record logged before L but not yet ended (flushing, or waiting for a
     * synchronous standby), would be in no list, and the chunk's snapshot would not see it. Once this xid, newer than
     * every one taken before L, has ended, every transaction running at L is below xmax and listed.
     */
    private void passNewestXid() throws SQLException {
        try (Statement st = connection.createStatement()) {
            st.execute("SELECT pg_catalog.pg_current_xact_id()");
        }
    }

    private Set<Long> runningTransactions() throws SQLException {
        Set<Long> xids = new HashSet<>();
        try (Statement st = connection.createStatement();
                ResultSet rs = st.executeQuery(
                        "SELECT x::pg_catalog.text FROM pg_catalog.pg_snapshot_xip(pg_catalog.pg_current_snapshot()) x")) {
            while (rs.next()) {
                xids.add(Long.parseUnsignedLong(rs.getString(1)));
            }
        }
        return xids;
    }

    /**
     * The sessions of {@code xids}, as far as this role may see them: pid, role, application, start, state, wait and
     * query id. Never the query's text: it is another application's SQL, with its literals (and secrets).
     */
    String describe(Set<Long> xids) throws SQLException {
        Long[] narrow = xids.stream().map(x -> x & 0xFFFF_FFFFL).toArray(Long[]::new);
        List<String> sessions = new ArrayList<>();
        try (PreparedStatement st = connection.prepareStatement("SELECT pid, usename, application_name, xact_start,"
                + " state, wait_event_type, wait_event, query_id FROM pg_catalog.pg_stat_activity"
                + " WHERE backend_xid::pg_catalog.text::pg_catalog.int8 = ANY (?)")) {
            st.setArray(1, connection.createArrayOf("int8", narrow));
            try (ResultSet rs = st.executeQuery()) {
                while (rs.next()) {
                    sessions.add("pid " + rs.getInt(1) + " (role " + rs.getString(2) + ", application "
                            + rs.getString(3) + ", since " + rs.getString(4) + ", " + rs.getString(5)
                            + (rs.getString(6) == null ? "" : ", waiting on " + rs.getString(6) + "/" + rs.getString(7))
                            + (rs.getString(8) == null ? "" : ", query id " + rs.getString(8)) + ")");
                }
            }
        }
        return sessions.isEmpty() ? "xids " + xids : String.join("; ", sessions);
    }
}
