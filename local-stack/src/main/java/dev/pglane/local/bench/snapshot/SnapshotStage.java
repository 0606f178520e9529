package dev.pglane.local.bench.snapshot;

import dev.pglane.local.bench.EngineRun;
import dev.pglane.local.bench.TargetDatabases;
import dev.pglane.local.stack.PostgresNode;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Locale;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The snapshot stage of the suite (issue #14): the source loaded once ({@link SnapshotData}), then, run after run,
 * each system loads its existing rows once: the COPY pipe, Debezium's initial snapshot (unless the engine runs are
 * left out), pglane's snapshot into Kafka and pglane end to end for each {@code snapshot.threads} value, in an order
 * that rotates with the run (so that no system always finds the cache cold or warm); last in each run, pglane end to
 * end under pgbench's load with the largest thread count, after which the load's rows are removed again. A run that
 * fails or loads wrongly is recorded as failed and the stage goes on.
 */
public final class SnapshotStage {
    private static final Logger log = LoggerFactory.getLogger(SnapshotStage.class);
    /** Debezium's documented default of {@code snapshot.max.threads}, which the stage leaves as it is. */
    static final int DEBEZIUM_DEFAULT_THREADS = 1;

    private final SnapshotOptions options;
    private final int runs;
    private final SnapshotConnectors connectors;
    private final EngineRun engine;
    private final Path pgbench;
    private final Path workDir;
    private final int workers;

    /**
     * @param engine Debezium's runs, or null to leave them out
     * @param workers the sink's {@code apply.workers} in the end-to-end runs
     */
    public SnapshotStage(
            SnapshotOptions options,
            int runs,
            SnapshotConnectors connectors,
            EngineRun engine,
            Path pgbench,
            Path workDir,
            int workers) {
        this.options = options;
        this.runs = runs;
        this.connectors = connectors;
        this.engine = engine;
        this.pgbench = pgbench;
        this.workDir = workDir;
        this.workers = workers;
    }

    /** A system of one run. */
    private interface Step {
        SnapshotMeasurement measure(SnapshotData.Info info, int run) throws Exception;
    }

    private record Named(String configuration, Step step) {}

    public SnapshotReport measure(String environment) throws Exception {
        PostgresNode source = connectors.source();
        PostgresNode target = connectors.target();
        SnapshotData data = new SnapshotData(source, target, pgbench);
        SnapshotData.Info info = data.load(options);
        log.info(
                "snapshot stage: {} rows ({} per table), {} MB as COPY text, loaded in {} s",
                info.totalRows(),
                info.rows(),
                info.copyBytes() / 1_000_000,
                format("%.1f", info.loadSeconds()));
        TargetDatabases targets =
                new TargetDatabases(source, SnapshotData.DATABASE, target, SnapshotData.EMPTY_TEMPLATE);
        PglaneEndToEndRun endToEnd = new PglaneEndToEndRun(connectors, data, targets, source, target, workers);
        SnapshotReport report = new SnapshotReport(environment + " " + describe(), info);
        List<Named> steps = steps(source, target, targets, data, endToEnd);
        for (int run = 1; run <= runs; run++) {
            List<Named> order = new ArrayList<>(steps);
            Collections.rotate(order, -(run - 1));
            for (Named step : order) {
                measure(report, step, info, run);
            }
            PglaneEndToEndRun.Load load = new PglaneEndToEndRun.Load(
                    pgbench, options.rate(), workDir.resolve("snapshot-pgbench-" + run + ".log"));
            int threads = options.maxThreads();
            try {
                measure(
                        report,
                        new Named(
                                SnapshotSystem.PGLANE_UNDER_LOAD.label(threads),
                                (i, r) -> endToEnd.measure(i, threads, r, load)),
                        info,
                        run);
            } finally {
                data.undoLoad();
            }
            if (run < runs) {
                info = data.info(info.loadSeconds()); // the load's updates changed values, not rows
            }
        }
        return report;
    }

    private List<Named> steps(
            PostgresNode source,
            PostgresNode target,
            TargetDatabases targets,
            SnapshotData data,
            PglaneEndToEndRun endToEnd) {
        List<Named> steps = new ArrayList<>();
        CopyPipeRun copy = new CopyPipeRun(source, target, targets);
        steps.add(new Named(SnapshotSystem.COPY_PIPE.label(SnapshotData.TABLES.size()), copy::measure));
        EngineSnapshotRun engineRun = engine == null ? null : new EngineSnapshotRun(engine, data);
        if (engineRun != null) {
            steps.add(new Named(SnapshotSystem.DEBEZIUM.label(DEBEZIUM_DEFAULT_THREADS), engineRun::debezium));
        }
        PglaneKafkaRun kafka = new PglaneKafkaRun(connectors, data, source, target);
        for (int threads : options.threads()) {
            if (engineRun != null) {
                steps.add(new Named(
                        SnapshotSystem.PGLANE_ENGINE.label(threads), (i, r) -> engineRun.pglane(i, threads, r)));
            }
            steps.add(new Named(SnapshotSystem.PGLANE_KAFKA.label(threads), (i, r) -> kafka.measure(i, threads, r)));
            steps.add(new Named(
                    SnapshotSystem.PGLANE_END_TO_END.label(threads), (i, r) -> endToEnd.measure(i, threads, r)));
        }
        return steps;
    }

    private static void measure(SnapshotReport report, Named step, SnapshotData.Info info, int run) {
        try {
            SnapshotMeasurement m = step.step().measure(info, run);
            log.info(
                    "snapshot, run {}, {}: {} s, {} rows/s, {} MB/s, CPU {} s per million rows{}",
                    run,
                    step.configuration(),
                    format("%.2f", m.seconds()),
                    Math.round(m.rowsPerSecond()),
                    format("%.1f", m.megabytesPerSecond()),
                    format("%.2f", m.cpuPerMillionRows()),
                    m.walMaxBytes() == null
                            ? ""
                            : format("; slot retained at most %.1f MB", m.walMaxBytes() / 1048576.0));
            report.add(m);
        } catch (Exception e) {
            log.error("snapshot, run {}, {} failed", run, step.configuration(), e);
            report.fail(step.configuration(), run, e);
        }
    }

    private String describe() {
        return format(
                "Snapshot stage: a database of its own on the source, pgbench -i -s %d and %,d rows of a wide table"
                        + " (20 columns of mixed types), in one publication; every system loads it into a fresh copy"
                        + " of an empty target with the same keys and indexes (Debezium and pglane into Kafka: into"
                        + " no target). pglane: the example configs, snapshot.mode initial_only into Kafka, initial end"
                        + " to end, snapshot.chunk.rows at its default, the sink's apply.workers %d. Debezium:"
                        + " snapshot.mode initial_only, snapshot.max.threads at its default (%d). Under load: pgbench"
                        + " TPC-B -R %d on the same tables while pglane loads them with snapshot.threads %d.",
                options.scale(),
                options.wideRows(),
                workers,
                DEBEZIUM_DEFAULT_THREADS,
                options.rate(),
                options.maxThreads());
    }

    private static String format(String pattern, Object... values) {
        return String.format(Locale.ROOT, pattern, values);
    }
}
