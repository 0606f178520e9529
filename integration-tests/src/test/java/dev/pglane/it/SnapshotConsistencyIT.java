package dev.pglane.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.pglane.local.consistency.ConsistencySchema;
import dev.pglane.local.consistency.ConsistencyWorkload;
import dev.pglane.local.consistency.InvariantChecker;
import dev.pglane.local.consistency.InvariantMonitor;
import dev.pglane.local.stack.PostgresNode;
import dev.pglane.local.stack.PostgresVersion;
import dev.pglane.local.verify.ComparisonReport;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The consistency suite's workload over a snapshot: the source has a history of the workload's transactions when
 * the connectors start on an empty target, and the workload goes on writing while the snapshot runs. From the moment
 * the sink reports the snapshot complete, the invariant checker watches the target, and it must never see a state the
 * source never had, neither while changes flow nor while a re-snapshot of every table, which a signal asks for,
 * replaces the target's rows chunk by chunk under that load. At the end the target equals the source.
 */
@Timeout(value = 600, unit = TimeUnit.SECONDS)
class SnapshotConsistencyIT {
    private static final Duration WAIT = Duration.ofSeconds(240);
    private static final int CLIENTS = 4;
    private static final List<String> TABLES = ConsistencySchema.TABLES;

    @RegisterExtension
    static final SharedWorker worker = new SharedWorker();

    @RegisterExtension
    static final SourceServers servers = new SourceServers();

    @ParameterizedTest(name = "{0}")
    @MethodSource("dev.pglane.it.ConsistencySettings#versions")
    @DisplayName("after the initial snapshot, and during a re-snapshot of every table under load, the target only"
            + " ever shows committed source states, and ends equal to the source")
    void snapshotsNeverShowAStateTheSourceNeverHad(PostgresVersion version) throws Exception {
        PostgresNode source = servers.of(version);
        PostgresNode target = servers.targetOf(version);
        String name = "snap_consistency_pg" + version.major();
        long seed = ConsistencySettings.seed();
        System.out.println("SnapshotConsistencyIT " + version + ": seed " + seed
                + " (run again with -Dpglane.consistency.seed=" + seed + ")");
        ConsistencyWorkload workload = new ConsistencyWorkload(source.jdbcUrl(), name, seed);
        workload.createTables();
        String signals = "CREATE TABLE " + name + ".pglane_signal (id text PRIMARY KEY, type text NOT NULL, data text)";
        SqlSession.execute(source, signals);
        // the target has the schema and none of the rows: the snapshot brings them
        SqlSession.execute(target, workload.ddl().toArray(String[]::new));
        SqlSession.execute(target, signals, "TRUNCATE " + qualified(name, TABLES) + " CASCADE");

        int transactions = ConsistencySettings.transactions();
        ConsistencyWorkload.Running running = workload.start(CLIENTS);
        ConsistencyWorkload.Summary summary;
        Map<String, String> snapshot = Map.of(
                "snapshot.mode", "initial", "snapshot.chunk.rows", "250", "signal.table", name + ".pglane_signal");
        Map<String, String> sink = Map.of("apply.workers", "4", "apply.group.max.transactions", "8");
        try {
            awaitCommitted(running, transactions / 2); // the history the snapshot finds
            try (SinkConnectorRun run = SinkConnectorRun.start(worker, source, target, name, snapshot, sink)) {
                Waits.until("the initial snapshot is complete on the target", WAIT, () -> snapshotComplete(run));
                try (InvariantMonitor monitor =
                        InvariantMonitor.start(new InvariantChecker(target.jdbcUrl(), name), Duration.ofMillis(50))) {
                    double before = SnapshotIT.metric(run, "snapshot-chunks-applied-total");
                    SqlSession.execute(
                            source,
                            "INSERT INTO " + name + ".pglane_signal VALUES ('again', 'execute-snapshot', '"
                                    + "{\"data-collections\": [" + quotedNames(name) + "]}')");
                    Waits.until(
                            "the re-snapshot of every table is complete on the target",
                            WAIT,
                            () -> SnapshotIT.metric(run, "snapshot-chunks-applied-total") >= before + TABLES.size()
                                    && snapshotComplete(run));
                    awaitCommitted(running, transactions);
                    summary = running.stop();
                    run.awaitCatchUp(WAIT);
                    monitor.stop();
                    System.out.println("SnapshotConsistencyIT " + name + ": " + summary + "; " + monitor.describe());
                    assertEquals(0, monitor.violatingChecks(), () -> "seed " + seed + ": " + monitor.describe());
                    assertTrue(
                            monitor.distinctStates() > 1,
                            () -> "the monitor saw the target change: " + monitor.describe());
                }
                // the signal table's rows are never replicated: the target's copy of it stays empty
                SqlSession.execute(source, "DELETE FROM " + name + ".pglane_signal");
                run.awaitCatchUp(WAIT);
                ComparisonReport report = run.compare();
                assertTrue(
                        report.isEqual(),
                        () -> "seed " + seed + ": the target differs from the source:\n" + report.summary());
            }
        } finally {
            running.stop();
        }
        assertTrue(summary.committed() >= transactions, summary::toString);
    }

    private static boolean snapshotComplete(SinkConnectorRun run) {
        return SnapshotIT.metric(run, "snapshot-complete") == 1.0;
    }

    private static void awaitCommitted(ConsistencyWorkload.Running running, long transactions) {
        Waits.until("the workload commits " + transactions + " transactions (" + running.summary() + ")", WAIT, () -> {
            running.throwIfFailed();
            return running.summary().committed() >= transactions;
        });
    }

    private static String qualified(String schema, List<String> tables) {
        return tables.stream().map(t -> schema + "." + t).collect(Collectors.joining(", "));
    }

    private static String quotedNames(String schema) {
        return TABLES.stream().map(t -> "\"" + schema + "." + t + "\"").collect(Collectors.joining(", "));
    }
}
