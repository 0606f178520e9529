package dev.pglane.local.bench.sustained;

import dev.pglane.local.bench.TargetDatabases;
import dev.pglane.local.stack.PostgresNode;
import dev.pglane.local.verify.ComparisonReport;
import dev.pglane.local.workload.Pgbench;
import java.io.IOException;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;

/**
 * The database every system replicates: pgbench's tables at one scale and the probe's table, on the source and, as a
 * template for each run's fresh target database, on the target.
 *
 * <p>pgbench_history gets a {@code bigserial} key on both sides: Debezium's JDBC sink upserts by the record's key
 * ({@code primary.key.mode=record_key}) and a keyless table has none. It also takes a probe row with every probe
 * row ({@link #HISTORY_PROBE}), marked by a negative {@code aid} and found by a partial index. Every system
 * replicates the same shape.
 */
final class SustainedDatabase {
    static final String PUBLICATION = "bench";
    private static final String TEMPLATE = "sustained_initial";
    /**
     * The probe's row in pgbench_history, the table the load adds most rows to: a system that applies each table on
     * its own shows a probe row only once this table has caught up to it too.
     */
    static final LagProbe.Companion HISTORY_PROBE = new LagProbe.Companion(
            "INSERT INTO pgbench_history (tid, bid, aid, delta, mtime) VALUES (0, 0, -?::bigint, 0, now())",
            "SELECT -aid FROM pgbench_history WHERE aid < 0 AND aid < -?::bigint ORDER BY aid DESC");

    private static final String HISTORY_SHAPE = "ALTER TABLE pgbench_history ADD COLUMN hid bigserial PRIMARY KEY";
    private static final String HISTORY_PROBE_INDEX =
            "CREATE INDEX pgbench_history_probe ON pgbench_history (aid) WHERE aid < 0";
    private static final String[] SHAPE = {HISTORY_SHAPE, HISTORY_PROBE_INDEX, LagProbe.CREATE_TABLE};

    private final PostgresNode source;
    private final PostgresNode target;
    private final Path pgbench;
    private final int scale;
    private final TargetDatabases targets;

    SustainedDatabase(PostgresNode source, PostgresNode target, Path pgbench, int scale) {
        this.source = source;
        this.target = target;
        this.pgbench = pgbench;
        this.scale = scale;
        this.targets = new TargetDatabases(source, source.database(), target, TEMPLATE);
    }

    /** The source's tables and publication, and the target's template, checked equal to the source. */
    void prepare() throws SQLException, IOException, InterruptedException {
        Pgbench.of(pgbench, source).init(scale);
        execute(source, source.database(), SHAPE);
        execute(source, source.database(), "CREATE PUBLICATION " + PUBLICATION + " FOR ALL TABLES", "CHECKPOINT");
        execute(target, target.database(), "CREATE DATABASE " + TEMPLATE);
        Pgbench.of(pgbench, target).inDatabase(TEMPLATE).init(scale);
        execute(target, TEMPLATE, SHAPE);
        ComparisonReport report = targets.compare(TEMPLATE);
        if (!report.isEqual()) {
            throw new IllegalStateException("the target's template differs from the source:\n" + report.summary());
        }
    }

    /**
     * Brings the source back to the template's state (pgbench's tables initialised again, the probe's emptied), for
     * the next system's run. Only while no slot exists: the reset is not meant to be replicated.
     */
    void reset() throws SQLException, IOException, InterruptedException {
        Pgbench.of(pgbench, source).init(scale);
        execute(
                source,
                source.database(),
                HISTORY_SHAPE,
                HISTORY_PROBE_INDEX,
                "TRUNCATE " + LagProbe.TABLE,
                "CHECKPOINT");
    }

    /** A fresh copy of the template on the target, for one run. */
    void createTarget(String database) throws SQLException {
        targets.createFromTemplate(database);
    }

    /** The source against a run's target database. */
    ComparisonReport compare(String database) throws SQLException {
        return targets.compare(database);
    }

    void dropTarget(String database) throws SQLException {
        targets.drop(database);
    }

    private static void execute(PostgresNode node, String database, String... statements) throws SQLException {
        try (Connection connection = node.open(database);
                Statement statement = connection.createStatement()) {
            for (String sql : statements) {
                statement.execute(sql);
            }
        }
    }
}
