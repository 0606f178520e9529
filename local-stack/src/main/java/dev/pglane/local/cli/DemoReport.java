package dev.pglane.local.cli;

import dev.pglane.local.pipeline.CatchUp;
import dev.pglane.local.pipeline.CommittedTransactions;
import dev.pglane.local.pipeline.LagSampler;
import dev.pglane.local.stack.RegistryNode;
import dev.pglane.local.verify.ComparisonReport;
import dev.pglane.local.watch.ViewOutput;
import dev.pglane.local.workload.ChangeWorkload;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.Locale;
import java.util.Optional;

/**
 * What {@link Demo} prints, a few lines per step, with the figures a reader asks for first; through the view's
 * output, so that the lines stay above the live view.
 */
final class DemoReport {
    private final ViewOutput out;

    DemoReport(ViewOutput out) {
        this.out = out;
    }

    void starting(Demo.Options options, Path log) {
        line(
                "starting PostgreSQL %d (source and target), a Kafka broker and a Connect worker; their logs go to %s",
                options.version().major(), log);
    }

    void stackUp(Duration took) {
        line("stack up in %s; creating the source's tables and both connectors", seconds(took));
    }

    void started(Demo.Options options, boolean pgbench) {
        line(
                "PostgreSQL %d, %s on the topics, sink apply.workers %d; for %d s the source runs %s",
                options.version().major(),
                options.avro()
                        ? "Avro through a schema registry"
                        : RegistryNode.canRun()
                                ? "JSON"
                                : "JSON (Avro needs Java 21 or newer for the schema registry: none found)",
                options.workers(),
                options.duration().toSeconds(),
                pgbench
                        ? "pgbench (2 clients" + rate(options.pgbenchRate()) + ") and the mixed workload (2 clients"
                                + rate(options.mixedRate(true)) + ")"
                        : "the mixed workload (4 clients" + rate(options.mixedRate(false)) + "; no pgbench at "
                                + options.pgbench() + ")");
    }

    private static String rate(int perSecond) {
        return perSecond == 0 ? ", as fast as they can" : String.format(Locale.ROOT, ", %,d tx/s", perSecond);
    }

    void workloads(long pgbenchTransactions, ChangeWorkload.Result mixed) {
        line(
                "workload: pgbench %,d transactions; mixed %,d transactions (%,d rolled back by the source itself)",
                pgbenchTransactions, mixed.committed(), mixed.rolledBack());
    }

    /**
     * Throughput counts from the workload's start to the moment the sink was seen caught up: every transaction
     * committed and was applied in that span.
     */
    void caughtUp(CatchUp.Result result, Instant begin, Instant workloadEnd, LagSampler lag) {
        CommittedTransactions committed = result.committed();
        Duration span = Duration.between(begin, workloadEnd).plus(result.waited());
        double seconds = Math.max(span.toMillis() / 1000.0, 0.001);
        line(
                "applied: %,d transactions, %,d row changes; caught up %s after the workload ended",
                committed.transactions(), committed.changes(), seconds(result.waited()));
        line(
                "throughput: %,.0f tx/s, %,.0f rows/s (over %s, from the workload's start to the catch-up)",
                committed.transactions() / seconds, committed.changes() / seconds, seconds(span));
        line(
                "lag while the workload ran (now minus the source commit time of the last applied transaction, or the"
                        + " workload's start before the first; %,d readings every %d ms): p50 %s, p99 %s, max %s",
                lag.samples(),
                LagSampler.interval().toMillis(),
                precise(lag.percentile(50)),
                precise(lag.percentile(99)),
                precise(lag.maxLag()));
        line("progress: %s", result.progress());
    }

    void snapshot(Optional<Duration> took) {
        line(
                "snapshot: %s",
                took.map(t -> "the source's existing rows were all on the target " + seconds(t)
                                + " after the connectors were created")
                        .orElse("the sink has not reported its last chunk committed (snapshot-complete)"));
    }

    void verified(ComparisonReport comparison) {
        line("verify:");
        comparison.summary().lines().forEach(out::message);
    }

    void failed(String what, Exception e) {
        line("%s: %s", what, e.getMessage());
    }

    void interrupted() {
        line("interrupted: stopping the stack (the connectors, the worker, the broker and both servers)");
    }

    void stopped(Path log) {
        line("stopped; the logs are in %s", log);
    }

    private void line(String format, Object... args) {
        out.message("demo: " + String.format(Locale.ROOT, format, args));
    }

    /** Lag is sampled four times a second, so hundredths mean something. */
    private static String precise(Duration duration) {
        return String.format(Locale.ROOT, "%.2f s", duration.toMillis() / 1000.0);
    }

    private static String seconds(Duration duration) {
        return String.format(Locale.ROOT, "%.1f s", duration.toMillis() / 1000.0);
    }
}
