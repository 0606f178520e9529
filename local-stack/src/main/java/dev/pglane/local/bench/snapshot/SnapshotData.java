package dev.pglane.local.bench.snapshot;

import dev.pglane.local.bench.sustained.LagProbe;
import dev.pglane.local.stack.PostgresNode;
import dev.pglane.local.workload.Pgbench;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import org.postgresql.PGConnection;

/**
 * The rows the snapshot stage loads: a database of its own on the source server ({@value #DATABASE}, so the other
 * stages' tables and backlogs stay as they are) with pgbench's tables at the stage's scale and a wide table, all in
 * one publication; and, on the target server, an empty template with the same tables, keys and indexes, of which
 * every run gets a fresh copy. Both also hold the {@link LagProbe}'s table, which the run under load writes into to
 * time the stream; it is empty before every run.
 */
final class SnapshotData {
    static final String DATABASE = "bench_snapshot";
    static final String PUBLICATION = "bench_snapshot";
    static final String EMPTY_TEMPLATE = "bench_snapshot_empty";
    static final String WIDE_TABLE = "snapshot_wide";
    /** pgbench's tables, then the wide one; pgbench_history is empty before the load and has no key. */
    static final List<String> TABLES =
            List.of("pgbench_accounts", "pgbench_branches", "pgbench_tellers", "pgbench_history", WIDE_TABLE);

    /** Twenty columns of mixed types, about 500 bytes a row as COPY's text. */
    private static final String WIDE_DDL = "CREATE TABLE " + WIDE_TABLE + " (id bigint PRIMARY KEY, n_int integer,"
            + " n_big bigint, n_small smallint, amount numeric(14,2), ratio real, score double precision, flag boolean,"
            + " day date, at timestamptz, uid uuid, doc jsonb, t1 text, t2 text, t3 text, t4 text, t5 text, t6 text,"
            + " label varchar(64), blob bytea)";

    private static final String WIDE_FILL = "INSERT INTO " + WIDE_TABLE + " SELECT g, g % 100000, g * 7919,"
            + " (g % 30000)::smallint, (g % 1000000) / 100.0, g / 3.0, g / 7.0, g % 2 = 0,"
            + " date '2020-01-01' + (g % 2000)::integer, timestamptz '2024-01-01 00:00:00+00' + g * interval '1 s',"
            + " md5(g::text)::uuid, jsonb_build_object('id', g, 'kind', 'wide', 'even', g % 2 = 0),"
            + " repeat(md5(g::text), 2), repeat(md5((g + 1)::text), 2), repeat(md5((g + 2)::text), 2),"
            + " repeat(md5((g + 3)::text), 2), repeat(md5((g + 4)::text), 2), repeat(md5((g + 5)::text), 2),"
            + " 'row ' || g, decode(md5(g::text), 'hex') FROM generate_series(?, ?) g";

    private static final int FILL_BATCH = 100_000;

    /**
     * What the source holds before a run.
     *
     * @param rows per table, in {@link #TABLES} order
     * @param copyBytes the tables' size as {@code COPY ... TO STDOUT} text: the bytes any logical copy has to move
     * @param tableBytes the tables' {@code pg_table_size} (heap and TOAST, no index)
     */
    record Info(List<Long> rows, long copyBytes, long tableBytes, double loadSeconds) {
        long totalRows() {
            return rows.stream().mapToLong(Long::longValue).sum();
        }
    }

    private final PostgresNode source;
    private final PostgresNode target;
    private final Path pgbench;

    SnapshotData(PostgresNode source, PostgresNode target, Path pgbench) {
        this.source = source;
        this.target = target;
        this.pgbench = pgbench;
    }

    /** Creates and fills the source database and the target's empty template; returns what the source holds. */
    Info load(SnapshotOptions options) throws SQLException, IOException, InterruptedException {
        long begin = System.nanoTime();
        execute(source, null, "CREATE DATABASE " + DATABASE);
        Pgbench.of(pgbench, source).inDatabase(DATABASE).init(options.scale());
        try (Connection connection = source.open(DATABASE);
                Statement statement = connection.createStatement()) {
            statement.execute(WIDE_DDL);
            statement.execute(LagProbe.CREATE_TABLE);
            try (var insert = connection.prepareStatement(WIDE_FILL)) {
                for (long from = 1; from <= options.wideRows(); from += FILL_BATCH) {
                    insert.setLong(1, from);
                    insert.setLong(2, Math.min(options.wideRows(), from + FILL_BATCH - 1));
                    insert.executeUpdate();
                }
            }
            // every table of this database: the stage's, nothing else
            statement.execute("CREATE PUBLICATION " + PUBLICATION + " FOR ALL TABLES");
            // hint bits set and statistics there before any run, so that no run pays for them
            statement.execute("VACUUM (ANALYZE) " + String.join(", ", TABLES));
            statement.execute("CHECKPOINT");
        }
        double seconds = (System.nanoTime() - begin) / 1e9;
        createEmptyTemplate(options.scale());
        return info(seconds);
    }

    /**
     * The target's template: pgbench's tables with their keys but no rows ({@code pgbench -i -I dtp}), and the wide
     * table, so that every system loads into the same keys and indexes as the source's.
     */
    private void createEmptyTemplate(int scale) throws SQLException, IOException, InterruptedException {
        execute(target, null, "CREATE DATABASE " + EMPTY_TEMPLATE);
        Pgbench.of(pgbench, target).inDatabase(EMPTY_TEMPLATE).init(scale, "dtp");
        execute(target, EMPTY_TEMPLATE, WIDE_DDL, LagProbe.CREATE_TABLE);
    }

    /** Row counts, COPY-text bytes and table sizes of the source now. */
    Info info(double loadSeconds) throws SQLException {
        List<Long> rows = new ArrayList<>();
        long copyBytes = 0;
        long tableBytes = 0;
        try (Connection connection = source.open(DATABASE);
                Statement statement = connection.createStatement()) {
            for (String table : TABLES) {
                rows.add(single(statement, "SELECT count(*) FROM " + table));
                tableBytes += single(statement, "SELECT pg_table_size('" + table + "')");
                CountingStream counted = new CountingStream();
                connection.unwrap(PGConnection.class).getCopyAPI().copyOut("COPY " + table + " TO STDOUT", counted);
                copyBytes += counted.bytes;
            }
        } catch (IOException e) {
            throw new SQLException("cannot read the source's tables with COPY", e);
        }
        return new Info(List.copyOf(rows), copyBytes, tableBytes, loadSeconds);
    }

    /**
     * Empties pgbench_history and the probe's table after a run under pgbench's load: the load's updates leave the
     * other tables' row counts as they were, its inserts went to pgbench_history only.
     */
    void undoLoad() throws SQLException {
        execute(source, DATABASE, "TRUNCATE pgbench_history, " + LagProbe.TABLE, "VACUUM (ANALYZE)", "CHECKPOINT");
    }

    /** Rows of {@code table} in the source database now. */
    long rows(String table) throws SQLException {
        try (Connection connection = source.open(DATABASE);
                Statement statement = connection.createStatement()) {
            return single(statement, "SELECT count(*) FROM " + table);
        }
    }

    /** Drops {@code slot} on the source if a run left it (a connector creates its own; Debezium its own). */
    void dropSlot(String slot) throws SQLException {
        execute(
                source,
                null,
                "SELECT pg_drop_replication_slot(slot_name) FROM pg_replication_slots WHERE slot_name = '" + slot
                        + "'");
    }

    private static void execute(PostgresNode server, String database, String... sql) throws SQLException {
        try (Connection connection = database == null ? server.open() : server.open(database);
                Statement statement = connection.createStatement()) {
            for (String one : sql) {
                statement.execute(one);
            }
        }
    }

    private static long single(Statement statement, String sql) throws SQLException {
        try (ResultSet rs = statement.executeQuery(sql)) {
            rs.next();
            return rs.getLong(1);
        }
    }

    /** Counts what COPY writes and drops it. */
    private static final class CountingStream extends OutputStream {
        private long bytes;

        @Override
        public void write(int b) {
            bytes++;
        }

        @Override
        public void write(byte[] b, int off, int len) {
            bytes += len;
        }
    }
}
