package dev.pglane.local.bench;

import dev.pglane.local.stack.PostgresNode;
import dev.pglane.local.workload.Pgbench;
import dev.pglane.wire.Lsn;
import java.io.IOException;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.List;

/**
 * WAL for the readers to catch up on: logical slots at the same position, then a pgbench (TPC-B or {@code -N}) or bulk
 * workload written after them, then a one-row fence transaction that marks the end.
 *
 * <p>Every slot after the first is a copy of it ({@code pg_copy_logical_replication_slot}), so all readers decode
 * exactly the same changes.
 */
final class Backlog {
    static final String PUBLICATION = "bench";
    /** The table of the one-row transaction that ends every backlog. */
    static final String FENCE_TABLE = "fence";
    /** The tables besides pgbench's: the bulk backlog's and the fence. */
    private static final List<String> TABLES = List.of(
            "CREATE TABLE bulk_rows (id bigserial PRIMARY KEY, n integer, note text)",
            "CREATE TABLE fence (id bigserial PRIMARY KEY)");

    /**
     * One backlog.
     *
     * @param transactions the workload's transactions (the fence not counted)
     * @param changes their row changes
     * @param end the server's WAL position after the fence: where pg_recvlogical stops
     * @param fenceXid the fence transaction: its END marks the end for the connector
     * @param fenceBound the WAL insert position inside the fence transaction, before its commit: every workload
     *     transaction's commit ends before it and the fence's after it, so a subscriber whose applied position (a
     *     commit end LSN) has reached it has applied the whole backlog
     */
    record Info(
            Workload workload,
            long transactions,
            long changes,
            Lsn start,
            Lsn end,
            long fenceXid,
            Lsn fenceBound,
            double generationSeconds) {
        long walBytes() {
            return end.bytesSince(start);
        }
    }

    private final PostgresNode server;
    private final BacklogShape shape;
    private final Pgbench pgbench;
    /** The scale of pgbench's tables on the source now, as {@link #prepare} or {@link #reset} left them. */
    private int scale;

    Backlog(PostgresNode server, BacklogShape shape) {
        this.server = server;
        this.shape = shape;
        this.pgbench = Pgbench.of(shape.pgbench(), server);
    }

    /**
     * Tables, the publication and the bulk procedure; pgbench's tables at {@code first}'s scale: the backlog to write
     * first.
     */
    void prepare(Workload first) throws SQLException, IOException, InterruptedException {
        createTables(server, server.database(), first);
        scale = shape.scale(first);
        execute(
                "CREATE PUBLICATION " + PUBLICATION + " FOR ALL TABLES",
                "CREATE PROCEDURE bulk_fill(total integer) LANGUAGE plpgsql AS $$"
                        + " BEGIN FOR i IN 1 .. total / 1000 LOOP"
                        + "   INSERT INTO bulk_rows (n, note) SELECT g, md5(g::text) FROM generate_series(1, 1000) g;"
                        + "   COMMIT;"
                        + " END LOOP; END $$",
                "CHECKPOINT");
    }

    /**
     * The tables of {@code workload}'s backlog with the rows they have before it (pgbench's at the workload's scale,
     * the others empty) in {@code database} of {@code target}: a copy of the source's state at the slots' position,
     * onto which a subscriber applies the backlog.
     */
    void createTables(PostgresNode target, String database, Workload workload)
            throws SQLException, IOException, InterruptedException {
        Pgbench.of(shape.pgbench(), target).inDatabase(database).init(shape.scale(workload));
        try (Connection connection = target.open(database);
                Statement statement = connection.createStatement()) {
            for (String sql : TABLES) {
                statement.execute(sql);
            }
        }
    }

    /**
     * Creates the slots, all at one position, then writes the workload and the fence. pgbench's tables must be at the
     * workload's scale ({@link #reset} to it first).
     */
    Info create(Workload workload, String... slots) throws SQLException, IOException, InterruptedException {
        if (workload.isPgbench() && shape.scale(workload) != scale) {
            throw new IllegalStateException("the " + workload.label() + " backlog needs pgbench's tables at scale "
                    + shape.scale(workload) + ", the source has them at " + scale + ": reset to it first");
        }
        Lsn start = Lsn.parse(
                query("SELECT lsn::text FROM pg_create_logical_replication_slot('" + slots[0] + "', 'pgoutput')"));
        for (int i = 1; i < slots.length; i++) {
            query("SELECT slot_name::text FROM pg_copy_logical_replication_slot('" + slots[0] + "', '" + slots[i]
                    + "')");
        }
        long begin = System.nanoTime();
        long transactions;
        if (workload.isPgbench()) {
            transactions =
                    pgbench(workload).runTransactions(shape.clients(), shape.jobs(), shape.transactionsPerClient());
        } else {
            long rows = shape.bulkRows() / 1000 * 1000L;
            execute("CALL bulk_fill(" + rows + ")");
            transactions = rows / 1000;
        }
        long changes = workload.changes(transactions);
        double seconds = (System.nanoTime() - begin) / 1e9;
        Fence fence = writeFence();
        Lsn end = Lsn.parse(query("SELECT pg_current_wal_lsn()::text"));
        return new Info(workload, transactions, changes, start, end, fence.xid(), fence.bound(), seconds);
    }

    /** A logical slot at the server's current position, for a reader that starts now. */
    void createSlot(String slot) throws SQLException {
        query("SELECT lsn::text FROM pg_create_logical_replication_slot('" + slot + "', 'pgoutput')");
    }

    /**
     * pgbench's TPC-B load for {@code duration}, with the backlog's clients and jobs, at the scale of the last
     * {@link #reset}; returns its transactions.
     */
    long load(Duration duration) throws IOException, InterruptedException {
        return pgbench.runFor(shape.clients(), shape.jobs(), duration);
    }

    /**
     * The one-row transaction that ends a backlog.
     *
     * @param xid its xid: its END marks the end for the connector
     * @param bound the WAL insert position inside it, before its commit: every earlier transaction's commit ends
     *     before it and the fence's after it
     */
    record Fence(long xid, Lsn bound) {}

    /** Commits a fence transaction: everything committed before it is behind its bound. */
    Fence writeFence() throws SQLException {
        try (Connection connection = server.open();
                Statement statement = connection.createStatement()) {
            connection.setAutoCommit(false);
            statement.execute("INSERT INTO fence DEFAULT VALUES");
            long xid = single(statement, "SELECT (txid_current() % 4294967296)::text")
                    .transform(Long::parseLong);
            Lsn bound = Lsn.parse(single(statement, "SELECT pg_current_wal_insert_lsn()::text"));
            connection.commit();
            return new Fence(xid, bound);
        }
    }

    /**
     * Whether {@code target} holds the fence row: the check that a subscriber's applied position, read where it keeps
     * it, really means the whole backlog is there (commits apply in order, the fence's last).
     */
    static boolean fenceApplied(Connection target) throws SQLException {
        try (Statement statement = target.createStatement()) {
            return !single(statement, "SELECT count(*)::text FROM fence").equals("0");
        }
    }

    void dropSlots(String... slots) throws SQLException {
        for (String slot : slots) {
            query("SELECT count(pg_drop_replication_slot(slot_name))::text FROM pg_replication_slots"
                    + " WHERE slot_name = '" + slot + "'");
        }
    }

    /** Whether a walsender is using {@code slot}. */
    static boolean slotActive(PostgresNode server, String slot) {
        try (Connection connection = server.open();
                PreparedStatement query = connection.prepareStatement(
                        "SELECT count(*) FROM pg_replication_slots WHERE slot_name = ? AND active")) {
            query.setString(1, slot);
            try (ResultSet rs = query.executeQuery()) {
                rs.next();
                return rs.getInt(1) > 0;
            }
        } catch (SQLException e) {
            throw new IllegalStateException("cannot read the state of slot " + slot, e);
        }
    }

    /**
     * Waits until no walsender uses {@code slot}, then a moment more: a walsender outlives its client briefly, and
     * its CPU time reaches the postmaster's account of exited children only once the postmaster has reaped it.
     */
    static void awaitSlotReleased(PostgresNode server, String slot) throws InterruptedException {
        long deadline = System.nanoTime() + 30_000_000_000L;
        while (slotActive(server, slot) && System.nanoTime() < deadline) {
            Thread.sleep(50);
        }
        Thread.sleep(500);
    }

    /**
     * Brings the source to the state before {@code next}'s backlog (pgbench's tables initialised again at its scale,
     * the other tables empty with their sequences restarted), so that the backlog starts where a target copy of that
     * state does. Only while no slot exists: the reset is not meant to be replicated.
     */
    void reset(Workload next) throws SQLException, IOException, InterruptedException {
        pgbench.init(shape.scale(next));
        scale = shape.scale(next);
        execute("TRUNCATE bulk_rows, fence RESTART IDENTITY", "CHECKPOINT");
    }

    /** Whether the source's pgbench tables must be initialised again (and a target copy made again) for {@code next}. */
    boolean scaleChanges(Workload next) {
        return shape.scale(next) != scale;
    }

    private Pgbench pgbench(Workload workload) {
        return workload == Workload.INDEPENDENT ? pgbench.withoutBranchAndTellerUpdates() : pgbench;
    }

    private void execute(String... statements) throws SQLException {
        try (Connection connection = server.open();
                Statement statement = connection.createStatement()) {
            for (String sql : statements) {
                statement.execute(sql);
            }
        }
    }

    private String query(String sql) throws SQLException {
        try (Connection connection = server.open();
                Statement statement = connection.createStatement()) {
            return single(statement, sql);
        }
    }

    private static String single(Statement statement, String sql) throws SQLException {
        try (ResultSet rs = statement.executeQuery(sql)) {
            if (!rs.next()) {
                throw new IllegalStateException("no row from " + sql);
            }
            return rs.getString(1);
        }
    }
}
