package dev.pglane.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.pglane.local.consistency.ConsistencyWorkload;
import dev.pglane.local.consistency.InvariantChecker;
import dev.pglane.local.consistency.InvariantMonitor;
import dev.pglane.local.pipeline.CatchUp;
import dev.pglane.local.stack.PostgresNode;
import dev.pglane.local.stack.PostgresVersion;
import dev.pglane.local.stack.TaskMetrics;
import dev.pglane.local.verify.ComparisonReport;
import java.sql.SQLException;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Concurrent sessions run a seeded workload on the source (transfers, atomic groups, per-session and global
 * sequences, TOAST, every type family, changing keys, unique codes, TRUNCATE, savepoints and transactions rolled
 * back, transactions of several MB) while a pglane source and a 4-worker sink apply it. All along, a reader checks
 * on the target invariants that only committed source states keep: the target never shows part of a transaction,
 * nor transactions out of the source's commit order. Once the sink has caught up, the target equals the source.
 *
 * <p>Each run prints its seed; {@code -Dpglane.consistency.seed=N} runs the same sessions' choices again, and
 * {@code -Dpglane.consistency.transactions=N} sets how many transactions commit (the matrix command runs more).
 */
@Timeout(value = 600, unit = TimeUnit.SECONDS)
class ConsistencyIT {
    private static final Duration CATCH_UP = Duration.ofSeconds(240);
    private static final Duration WORKLOAD = Duration.ofSeconds(240);
    private static final int CLIENTS = 6;
    /** Checks that must catch the target between its first and its last state, not only at either end. */
    private static final int MIN_INTERMEDIATE_CHECKS = 5;

    @RegisterExtension
    static final SharedWorker worker = new SharedWorker();

    @RegisterExtension
    static final SourceServers servers = new SourceServers();

    static Stream<Arguments> versionsAndStreaming() {
        return ConsistencySettings.versions().stream()
                .flatMap(version -> Stream.of(Arguments.of(version, "off"), Arguments.of(version, "on")));
    }

    @ParameterizedTest(name = "{0}, streaming {1}")
    @MethodSource("versionsAndStreaming")
    @DisplayName("a seeded concurrent workload: the target only ever shows committed source states, in source"
            + " commit order, and ends equal to the source")
    void onlyCommittedStates(PostgresVersion version, String streaming) throws Exception {
        PostgresNode source = servers.of(version);
        PostgresNode target = servers.targetOf(version);
        String name = "consistency_" + streaming + "_pg" + version.major();
        long seed = ConsistencySettings.seed();
        System.out.println("ConsistencyIT " + version + ", streaming " + streaming + ": seed " + seed
                + " (run again with -Dpglane.consistency.seed=" + seed + ")");
        ConsistencyWorkload workload = new ConsistencyWorkload(source.jdbcUrl(), name, seed);
        workload.createTables();
        SqlSession.execute(target, workload.ddl().toArray(String[]::new));
        boolean streamed = streaming.equals("on");
        if (streamed) {
            SourceRestartIT.streamEveryTransaction(source, version);
        }
        try (SinkConnectorRun run = SinkConnectorRun.start(
                        worker, source, target, name, Map.of("streaming.mode", streaming), sinkSettings(streamed));
                InvariantMonitor monitor =
                        InvariantMonitor.start(new InvariantChecker(target.jdbcUrl(), name), Duration.ofMillis(50))) {
            ConsistencyWorkload.Summary summary = runWithBacklog(run, workload, !streamed);
            System.out.println("ConsistencyIT " + name + ": " + summary);

            CatchUp.Result caughtUp = run.awaitCatchUp(CATCH_UP);
            double startedAhead = TaskMetrics.value(run.sinkName(), "overlap-starts-total");
            assertEquals(streamed, startedAhead > 0, "transactions that started ahead: " + startedAhead);
            monitor.stop();
            System.out.println("ConsistencyIT " + name + ": " + monitor.describe());
            assertEquals(0, monitor.violatingChecks(), () -> "seed " + seed + ": " + monitor.describe());
            ComparisonReport report = run.compare();
            assertTrue(
                    report.isEqual(),
                    () -> "seed " + seed + ": the target differs from the source:\n" + report.summary());
            SinkReplicationIT.assertProgressAtLastTransaction(run, caughtUp);
            long logged = ConsistencySettings.loggedTransactions(source, name);
            assertEquals(summary.committed(), logged, "every committed transaction logged its stamp once");
            assertTrue(
                    monitor.checksWhere(n -> n > 0 && n < logged) >= MIN_INTERMEDIATE_CHECKS,
                    () -> "the monitor must catch the target while it applies, not only before and after: "
                            + monitor.describe());
            ConsistencySettings.assertStreamed(source, name, streamed);
        } finally {
            if (streamed) {
                SqlSession.execute(source, "ALTER SYSTEM RESET ALL", "SELECT pg_reload_conf()");
            }
        }
    }

    /**
     * Four workers and a small buffer. With streaming off, the sink groups consecutive transactions (its default),
     * so the target skips the states inside a group but must still show only committed ones, in order; with
     * streaming on, each source transaction is a target transaction of its own, so the workers apply many at once,
     * and with {@code apply.overlap} dependent ones start before their predecessors commit: the workload's inserts
     * followed by updates of the same rows make them run again after those.
     */
    private static Map<String, String> sinkSettings(boolean streamed) {
        return Map.of(
                "apply.workers",
                "4",
                "buffer.max.bytes",
                Long.toString(2L << 20),
                "apply.group.max.transactions",
                streamed ? "1" : "32",
                "apply.overlap",
                Boolean.toString(streamed));
    }

    /**
     * Runs the workload with the sink paused until a backlog has built, so that the sink's four workers have
     * independent transactions to apply at once (asserted without groups: more than one busy), then on while the
     * sink applies.
     */
    private static ConsistencyWorkload.Summary runWithBacklog(
            SinkConnectorRun run, ConsistencyWorkload workload, boolean grouped) throws SQLException {
        int transactions = ConsistencySettings.transactions();
        run.pauseSink();
        ConsistencyWorkload.Running running = workload.start(CLIENTS);
        try {
            ConsistencySettings.awaitCommitted(running, transactions / 2, WORKLOAD);
            run.resumeSink();
            if (!grouped) {
                Waits.until(
                        "more than one of the sink's apply workers is busy at once",
                        WORKLOAD,
                        () -> TaskMetrics.value(run.sinkName(), "busy-workers") > 1);
            }
            ConsistencySettings.awaitCommitted(running, transactions, WORKLOAD);
        } finally {
            running.stop();
        }
        return running.summary();
    }
}
