package dev.pglane.local.bench.sustained;

import dev.pglane.local.stack.PostgresNode;
import dev.pglane.local.verify.ComparisonReport;
import dev.pglane.local.workload.Pgbench;
import java.time.Duration;
import java.util.Locale;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One system through the rate steps: the source back at its initial state, a fresh target database, the system
 * started, the probe started, a warm-up at the first rate, then each step's paced pgbench load, judged by
 * {@link BoundedRule} once its last probe rows are visible (or {@link BoundedRule#p99Cap} has passed), and the next
 * rate chosen by {@link StepPolicy}. Afterwards the probe stops writing, the target catches up, and it is compared with
 * the source.
 */
final class SteppedLoad {
    private static final Logger log = LoggerFactory.getLogger(SteppedLoad.class);
    /** How long the target may take to catch up after the warm-up, and after the last step. */
    private static final Duration CATCH_UP = Duration.ofMinutes(10);
    /** How often a target that differs from the source is compared again while it catches up. */
    private static final Duration COMPARE_AGAIN = Duration.ofSeconds(5);

    private final SustainedOptions options;
    private final PostgresNode source;
    private final PostgresNode target;
    private final SustainedDatabase database;
    private final Replications replications;
    private final BoundedRule rule;
    private final Pgbench pgbench;

    SteppedLoad(
            SustainedOptions options,
            PostgresNode source,
            PostgresNode target,
            SustainedDatabase database,
            Replications replications,
            BoundedRule rule) {
        this.options = options;
        this.source = source;
        this.target = target;
        this.database = database;
        this.replications = replications;
        this.rule = rule;
        this.pgbench = Pgbench.of(options.pgbench(), source);
    }

    SystemRun measure(SustainedSystem system, int run) throws Exception {
        database.reset();
        String targetDatabase = "sustained_" + system.option().replace('-', '_') + "_" + run;
        database.createTarget(targetDatabase);
        try (Replication replication = replications.start(system, run, targetDatabase);
                LagProbe probe =
                        LagProbe.start(source.open(), target.open(targetDatabase), SustainedDatabase.HISTORY_PROBE)) {
            warmUp(system, replication, probe);
            StepPolicy.Climb climb = StepPolicy.climb(options.rates(), rate -> {
                StepResult step = step(system, run, rate, replication, probe);
                log.info(
                        "{} run {}: {} tx/s asked, {} reached; lag p50 {} s, p99 {} s, max {} s; {}",
                        system.label(),
                        run,
                        step.rateAsked(),
                        format("%.0f", step.rateAchieved()),
                        format("%.3f", step.lag().p50Seconds()),
                        format("%.3f", step.lag().p99Seconds()),
                        format("%.3f", step.lag().maxSeconds()),
                        step.lag().verdict());
                return step;
            });
            log.info("{} run {}: {}", system.label(), run, climb.stop().words());
            probe.stopWriting();
            if (!probe.awaitVisible(System.nanoTime(), CATCH_UP)) {
                return new SystemRun(
                        system,
                        run,
                        climb.steps(),
                        climb.stop(),
                        null,
                        "not caught up " + CATCH_UP.toMinutes() + " min after the load");
            }
            long probeCaughtUp = System.nanoTime();
            Comparisons comparisons = awaitEqual(replication, targetDatabase);
            ComparisonReport last = comparisons.last();
            String check = !last.isEqual()
                    ? last.summary()
                    : comparisons.count() == 1
                            ? "target equal to the source when the probe's last row was seen"
                            : format(
                                    "target equal to the source at comparison %d, %.0f s after the probe's last row"
                                            + " was seen",
                                    comparisons.count(), (System.nanoTime() - probeCaughtUp) / 1e9);
            return new SystemRun(system, run, climb.steps(), climb.stop(), last.isEqual(), check);
        } finally {
            database.dropTarget(targetDatabase);
        }
    }

    /**
     * Compares the target with the source until they are equal, or {@link #CATCH_UP} has passed: a system that
     * applies each table on its own (Debezium's sink, a topic per table) may have shown the probe's last row while
     * the load's tables are still behind.
     */
    private Comparisons awaitEqual(Replication replication, String targetDatabase) throws Exception {
        long deadline = System.nanoTime() + CATCH_UP.toNanos();
        ComparisonReport comparison = database.compare(targetDatabase);
        int count = 1;
        while (!comparison.isEqual() && System.nanoTime() < deadline) {
            replication.checkHealthy();
            Thread.sleep(COMPARE_AGAIN.toMillis());
            comparison = database.compare(targetDatabase);
            count++;
        }
        return new Comparisons(comparison, count);
    }

    /** The last comparison of a target with the source, and how many were made. */
    private record Comparisons(ComparisonReport last, int count) {}

    /**
     * The first rate for the warm-up time, then the wait until the target has caught up with it: every topic exists,
     * every consumer reads it, the hot paths are compiled.
     */
    private void warmUp(SustainedSystem system, Replication replication, LagProbe probe) throws Exception {
        long begin = System.nanoTime();
        pgbench.runAtRate(options.clients(), options.jobs(), options.rates().get(0), options.warmUp());
        if (!probe.awaitVisible(System.nanoTime(), CATCH_UP)) {
            replication.checkHealthy();
            throw new IllegalStateException(
                    system.label() + " did not catch up within " + CATCH_UP + " after its warm-up");
        }
        replication.checkHealthy();
        log.info(
                "{}: warmed up and caught up in {} s",
                system.label(),
                format("%.1f", (System.nanoTime() - begin) / 1e9));
    }

    private StepResult step(SustainedSystem system, int run, int rate, Replication replication, LagProbe probe)
            throws Exception {
        long from = System.nanoTime();
        long processed = pgbench.runAtRate(options.clients(), options.jobs(), rate, options.step());
        long until = System.nanoTime();
        // the step's last probe rows: a bounded system shows them within the cap; waiting longer tells nothing more
        probe.awaitVisible(until, Duration.ofMillis(Math.round(rule.p99Cap() * 1000)));
        replication.checkHealthy();
        double seconds = (until - from) / 1e9;
        StepLag lag = rule.judge(probe.samples(from, until, System.nanoTime()), seconds);
        return new StepResult(
                system, run, rate, processed / (double) options.step().toSeconds(), seconds, lag);
    }

    private static String format(String pattern, Object... values) {
        return String.format(Locale.ROOT, pattern, values);
    }
}
