package dev.pglane.local.bench;

import dev.pglane.local.verify.ComparisonReport;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Locale;
import java.util.function.IntFunction;
import java.util.function.Predicate;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The sink stage on one backlog: PostgreSQL's subscriber and pglane's sink with each worker count apply it, run after
 * run, each onto a fresh copy of the target's template, and each run's target is compared with the source. A run
 * that fails or differs is recorded as a failure, not a figure. Configurations alternate order between runs so that
 * none always runs first (or last).
 */
final class SinkStage {
    private static final Logger log = LoggerFactory.getLogger(SinkStage.class);

    private final int runs;
    private final List<Integer> workers;
    private final TargetDatabases targets;
    private final NativeSubscriberRun nativeRun;
    private final SinkConnectorRun sinkRun;
    private final String namePrefix;
    private final Predicate<String> pglaneCompares;

    /**
     * @param nativeRun PostgreSQL's subscriber, or null to leave it out
     * @param sinkRun pglane's sink, or null when {@code workers} is empty
     * @param namePrefix starts the sink connectors' names (and so their consumer groups)
     * @param pglaneCompares the tables ({@code schema.table}) a run of pglane's sink is compared on: its table group's
     */
    SinkStage(
            int runs,
            List<Integer> workers,
            TargetDatabases targets,
            NativeSubscriberRun nativeRun,
            SinkConnectorRun sinkRun,
            String namePrefix,
            Predicate<String> pglaneCompares) {
        this.runs = runs;
        this.workers = workers;
        this.targets = targets;
        this.nativeRun = nativeRun;
        this.sinkRun = sinkRun;
        this.namePrefix = namePrefix;
        this.pglaneCompares = pglaneCompares;
    }

    /** @param nativeSlot the slot that PostgreSQL's subscriber uses in a run (a subscription consumes its slot) */
    void measure(SinkReport report, Backlog.Info backlog, IntFunction<String> nativeSlot) {
        for (int run = 1; run <= runs; run++) {
            for (CatchUpConfiguration configuration : order(run)) {
                measureOne(report, backlog, configuration, run, nativeSlot.apply(run));
            }
        }
    }

    /**
     * The configurations of one run in the order to measure them: PostgreSQL's subscriber then pglane by rising
     * worker count in odd runs, the reverse in even runs.
     */
    private List<CatchUpConfiguration> order(int run) {
        List<CatchUpConfiguration> order = new ArrayList<>();
        if (nativeRun != null) {
            order.add(CatchUpConfiguration.NATIVE);
        }
        workers.stream().sorted().map(CatchUpConfiguration::pglane).forEach(order::add);
        if (run % 2 == 0) {
            Collections.reverse(order);
        }
        return order;
    }

    private void measureOne(
            SinkReport report, Backlog.Info info, CatchUpConfiguration configuration, int run, String nativeSlot) {
        String database = configuration.database(run);
        try {
            targets.createFromTemplate(database);
            try {
                CatchUpMeasurement measured = configuration.isNative()
                        ? nativeRun.measure(database, nativeSlot, info, run)
                        : sinkRun.measure(database, configuration.workers(), namePrefix + database, info, run);
                ComparisonReport compared = targets.compare(database);
                ComparisonReport comparison = configuration.isNative() ? compared : compared.only(pglaneCompares);
                if (comparison.isEqual()) {
                    report.add(logged(measured, configuration, run));
                } else {
                    fail(
                            report,
                            configuration,
                            run,
                            "the target differs from the source after catching up in "
                                    + format("%.2f", measured.seconds()) + " s:\n" + comparison.summary());
                }
            } finally {
                targets.drop(database);
            }
        } catch (Exception e) {
            log.error("run {}, {} failed", run, configuration.label(), e);
            report.fail(new SinkReport.Failure(configuration.label(), run, String.valueOf(e.getMessage())));
        }
    }

    private static CatchUpMeasurement logged(CatchUpMeasurement measured, CatchUpConfiguration configuration, int run) {
        log.info(
                "run {}, {}: {} s, {} tx/s, {} changes/s; CPU s: target PG {}, source PG {}, JVM {}",
                run,
                configuration.label(),
                format("%.2f", measured.seconds()),
                Math.round(measured.transactionsPerSecond()),
                Math.round(measured.changesPerSecond()),
                format("%.2f", measured.targetPgCpu()),
                format("%.2f", measured.sourcePgCpu()),
                measured.connectCpu() == null ? "-" : format("%.2f", measured.connectCpu()));
        return measured;
    }

    private static void fail(SinkReport report, CatchUpConfiguration configuration, int run, String reason) {
        log.error("run {}, {}: {}", run, configuration.label(), reason);
        report.fail(new SinkReport.Failure(configuration.label(), run, reason));
    }

    private static String format(String pattern, Object... values) {
        return String.format(Locale.ROOT, pattern, values);
    }
}
