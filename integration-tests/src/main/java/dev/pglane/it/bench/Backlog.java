package dev.pglane.it.bench;

import dev.pglane.it.stack.PostgresNode;
import dev.pglane.it.workload.Pgbench;
import dev.pglane.wire.Lsn;
import java.io.IOException;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;

/**
 * WAL for the readers to catch up on: two logical slots at the same position, then a pgbench or bulk workload
 * written after them, then a one-row fence transaction that marks the end.
 *
 * <p>The second slot is a copy of the first ({@code pg_copy_logical_replication_slot}), so both readers decode
 * exactly the same changes.
 */
final class Backlog {
    static final String PUBLICATION = "bench";

    /**
     * One backlog.
     *
     * @param transactions the workload's transactions (the fence not counted)
     * @param changes their row changes
     * @param end the server's WAL position after the fence: where pg_recvlogical stops
     * @param fenceXid the fence transaction: its END marks the end for the connector
     */
    record Info(
            Workload workload,
            long transactions,
            long changes,
            Lsn start,
            Lsn end,
            long fenceXid,
            double generationSeconds) {
        long walBytes() {
            return end.bytesSince(start);
        }
    }

    private final PostgresNode server;
    private final BenchOptions options;
    private final Pgbench pgbench;

    Backlog(PostgresNode server, BenchOptions options) {
        this.server = server;
        this.options = options;
        this.pgbench = Pgbench.of(options.pgbench(), server);
    }

    /** Tables, the publication and the bulk procedure; pgbench's tables at the configured scale. */
    void prepare() throws SQLException, IOException, InterruptedException {
        pgbench.init(options.scale());
        execute(
                "CREATE TABLE bulk_rows (id bigserial PRIMARY KEY, n integer, note text)",
                "CREATE TABLE fence (id bigserial PRIMARY KEY)",
                "CREATE PUBLICATION " + PUBLICATION + " FOR ALL TABLES",
                "CREATE PROCEDURE bulk_fill(total integer) LANGUAGE plpgsql AS $$"
                        + " BEGIN FOR i IN 1 .. total / 1000 LOOP"
                        + "   INSERT INTO bulk_rows (n, note) SELECT g, md5(g::text) FROM generate_series(1, 1000) g;"
                        + "   COMMIT;"
                        + " END LOOP; END $$",
                "CHECKPOINT");
    }

    /** Creates both slots, writes the workload and the fence. */
    Info create(Workload workload, String firstSlot, String secondSlot)
            throws SQLException, IOException, InterruptedException {
        Lsn start = Lsn.parse(
                query("SELECT lsn::text FROM pg_create_logical_replication_slot('" + firstSlot + "', 'pgoutput')"));
        query("SELECT slot_name::text FROM pg_copy_logical_replication_slot('" + firstSlot + "', '" + secondSlot
                + "')");
        long begin = System.nanoTime();
        long transactions;
        long changes;
        if (workload == Workload.PGBENCH) {
            transactions = pgbench.runTransactions(options.clients(), options.jobs(), options.transactionsPerClient());
            changes = 4 * transactions; // TPC-B: three updates and one insert
        } else {
            long rows = options.bulkRows() / 1000 * 1000L;
            execute("CALL bulk_fill(" + rows + ")");
            transactions = rows / 1000;
            changes = rows;
        }
        double seconds = (System.nanoTime() - begin) / 1e9;
        long fenceXid;
        try (Connection connection = server.open();
                Statement statement = connection.createStatement()) {
            connection.setAutoCommit(false);
            statement.execute("INSERT INTO fence DEFAULT VALUES");
            fenceXid = single(statement, "SELECT (txid_current() % 4294967296)::text")
                    .transform(Long::parseLong);
            connection.commit();
        }
        Lsn end = Lsn.parse(query("SELECT pg_current_wal_lsn()::text"));
        return new Info(workload, transactions, changes, start, end, fenceXid, seconds);
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
