package dev.pglane.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.pglane.local.consistency.ConsistencySchema;
import dev.pglane.local.consistency.ConsistencyWorkload;
import dev.pglane.local.consistency.InvariantChecker;
import dev.pglane.local.consistency.InvariantMonitor;
import dev.pglane.local.fault.ConnectCluster;
import dev.pglane.local.fault.ConnectWorkerProcess;
import dev.pglane.local.pipeline.CatchUp;
import dev.pglane.local.pipeline.Pipeline;
import dev.pglane.local.pipeline.ProgressTable;
import dev.pglane.local.stack.ConnectorConfigs;
import dev.pglane.local.stack.PostgresNode;
import dev.pglane.local.verify.ComparisonReport;
import dev.pglane.local.verify.DatabaseComparator;
import dev.pglane.wire.Lsn;
import java.io.IOException;
import java.nio.file.Files;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * Scale-out by table groups on a real Connect cluster of three workers: one source, and three sinks that each apply a
 * group of its tables to the same target ({@code apply.scope=consumed_topics}). The consistency workload's
 * transactions span the groups (each logs itself in the log group's tables besides what it changes in the others),
 * and a writer of its own moves money inside the money group alone. While they run, each group is checked for the
 * invariants that lie within it; the worker that runs one group's task is killed and the worker that runs another's
 * is cut off from the broker, so that Connect moves those tasks. At the end every group has caught up, never showed a
 * state its source did not commit, and the target equals the source, with nothing applied twice.
 */
@Timeout(value = 420, unit = TimeUnit.SECONDS)
class TableGroupsClusterIT {
    private static final Duration MOVED = Duration.ofSeconds(90);
    private static final Duration CATCH_UP = Duration.ofSeconds(180);
    private static final Duration WORKLOAD = Duration.ofSeconds(180);
    private static final int CLIENTS = 3;
    private static final int STEP_TRANSACTIONS = 400;
    private static final String PROGRESS_TABLE = "public.pglane_progress";
    /** Each group's tables; an invariant of the workload reads tables of one group only, or it is not checked. */
    private static final Map<String, Set<String>> GROUPS = groups();

    @RegisterExtension
    static final SharedWorker worker = SharedWorker.cluster(3);

    @RegisterExtension
    static final SourceServers servers = new SourceServers();

    private static Map<String, Set<String>> groups() {
        Map<String, Set<String>> groups = new LinkedHashMap<>();
        groups.put("money", Set.of("accounts", "docs", "typed"));
        groups.put("marks", Set.of("tx_marks", "tx_items", "tx_tags", "composite", "events_nopk", "scratch"));
        groups.put("log", Set.of("session_seq", "tx_log", "clock", "clock_log"));
        return groups;
    }

    @Test
    @DisplayName("three table groups on three workers, a worker killed and one cut off: each group only ever shows"
            + " committed source states and the target ends equal to the source")
    void groupsStayConsistentWhileTheirTasksMove() throws Exception {
        PostgresNode source = servers.of(FaultStory.VERSION);
        PostgresNode target = servers.targetOf(FaultStory.VERSION);
        String name = "groups_pg" + FaultStory.VERSION.major();
        long seed = ConsistencySettings.seed();
        System.out.println("TableGroupsClusterIT: seed " + seed + " (-Dpglane.consistency.seed=" + seed + ")");
        ConsistencyWorkload workload = new ConsistencyWorkload(source.jdbcUrl(), name, seed);
        workload.createTables();
        SqlSession.execute(target, workload.ddl().toArray(String[]::new));
        ConnectCluster cluster = worker.connectCluster();
        List<String> sinks = new ArrayList<>();
        List<InvariantMonitor> monitors = new ArrayList<>();
        try (SourceConnectorRun run = SourceConnectorRun.start(worker, source, name, Map.of())) {
            for (Map.Entry<String, Set<String>> group : GROUPS.entrySet()) {
                sinks.add(startGroupSink(target, run, group.getKey(), group.getValue()));
                monitors.add(InvariantMonitor.start(
                        InvariantChecker.ofGroup(target.jdbcUrl(), name, group.getValue()), Duration.ofMillis(50)));
            }
            ConsistencyWorkload.Running running = workload.start(CLIENTS);
            MoneyMover mover = MoneyMover.start(source.jdbcUrl(), name, seed);
            try {
                awaitMoreCommitted(running);
                ConnectWorkerProcess killed =
                        cluster.workerRunning(sinks.get(0), 0).orElseThrow();
                Lsn beforeKill = progress(target, sinks.get(0));
                killed.kill();
                cluster.awaitTaskMovedFrom(sinks.get(0), 0, killed, MOVED);
                awaitApplyingPast(target, sinks.get(0), beforeKill);

                ConnectWorkerProcess cut =
                        cluster.workerRunning(sinks.get(1), 0).orElseThrow();
                cluster.partition(cut);
                cluster.awaitTaskMovedFrom(sinks.get(1), 0, cut, MOVED);
                awaitMoreCommitted(running);
                cluster.heal(cut);
                killed.start(); // both back in the group: Connect spreads the work over three workers again
                awaitMoreCommitted(running);
            } finally {
                running.stop();
                mover.stop();
            }
            ConsistencyWorkload.Summary summary = running.summary();
            System.out.println("TableGroupsClusterIT: " + summary + "; " + mover.moved() + " moves inside one group");
            assertTrue(mover.moved() > 0, "transactions inside the money group alone committed");

            for (String sink : sinks) {
                Pipeline pipeline = new Pipeline(
                        source.jdbcUrl(),
                        target.jdbcUrl(),
                        worker.bootstrapServers(),
                        run.slot(),
                        run.topicPrefix(),
                        sink,
                        PROGRESS_TABLE,
                        run.format());
                CatchUp.unlessFailed(pipeline, worker.rest(), run.topicPrefix()).await(CATCH_UP);
            }
            for (int i = 0; i < monitors.size(); i++) {
                InvariantMonitor monitor = monitors.get(i);
                monitor.stop();
                System.out.println("TableGroupsClusterIT " + sinks.get(i) + ": " + monitor.describe());
                assertEquals(0, monitor.violatingChecks(), () -> "seed " + seed + ": " + monitor.describe());
                assertTrue(monitor.distinctStates() > 2, () -> "checked while applying: " + monitor.describe());
            }
            ComparisonReport report = new DatabaseComparator(source.jdbcUrl(), target.jdbcUrl()).compare();
            assertTrue(report.isEqual(), () -> "seed " + seed + ": the target differs:\n" + report.summary());
            assertEquals(
                    summary.committed(),
                    ConsistencySettings.loggedTransactions(target, name),
                    "every committed transaction logged once on the target");
            assertNoGroupWarning(cluster);
        } finally {
            monitors.forEach(InvariantMonitor::close);
            for (String sink : sinks) {
                worker.rest().deleteConnector(sink);
            }
        }
    }

    /**
     * A sink of the group {@code group}: the marker topic and the change topics of {@code tables}, two apply workers,
     * and a consumer that leaves the group within 6 s of its worker being cut off.
     */
    private static String startGroupSink(
            PostgresNode target, SourceConnectorRun run, String group, Set<String> tables) {
        String sink = run.topicPrefix() + "_" + group;
        String prefix = run.topicPrefix().replace(".", "\\.");
        Map<String, String> config =
                ConnectorConfigs.forSink(target, worker.bootstrapServers()).load(ConnectorConfigs.SINK_JSON);
        config.put("name", sink);
        config.put("source.topic.prefix", run.topicPrefix());
        config.put("topics.regex", prefix + "\\.(transactions|" + prefix + "\\.(" + String.join("|", tables) + "))");
        config.put("apply.scope", "consumed_topics");
        config.put("apply.workers", "2");
        config.put("conflict.policy", "error");
        config.put("progress.table", PROGRESS_TABLE);
        config.putAll(new HashMap<>(Map.of(
                "consumer.override.metadata.max.age.ms", "1000",
                "consumer.override.session.timeout.ms", "6000",
                "consumer.override.heartbeat.interval.ms", "1000")));
        worker.rest().putConnectorConfig(sink, config);
        worker.rest().awaitConnectorRunning(sink, MOVED);
        return sink;
    }

    /** No worker logged a topic two groups apply, or one no group applies: the three groups cover the source once. */
    private static void assertNoGroupWarning(ConnectCluster cluster) throws IOException {
        for (ConnectWorkerProcess member : cluster.workers()) {
            String workerLog = Files.readString(member.logFile());
            for (String wrong : List.of("and so does", "no sink applies topic")) {
                assertFalse(workerLog.contains(wrong), member + " warned of the groups: \"" + wrong + "\"");
            }
        }
    }

    /** The load goes on through each step: {@value #STEP_TRANSACTIONS} more transactions commit. */
    private static void awaitMoreCommitted(ConsistencyWorkload.Running running) {
        ConsistencySettings.awaitCommitted(running, running.summary().committed() + STEP_TRANSACTIONS, WORKLOAD);
    }

    /**
     * Waits until {@code sink} records progress past {@code lsn}: its task, moved to another worker, has joined its
     * consumer group and applies. Only then is the next worker cut off. A worker that loses the broker while a sink
     * task's consumer takes its partitions can fail that task for good, in Kafka's client ({@code
     * KafkaConsumer.position} throws a NullPointerException out of Connect's rebalance listener, before pglane's
     * code runs); the operations guide says so.
     */
    private static void awaitApplyingPast(PostgresNode target, String sink, Lsn lsn) {
        Waits.until(
                sink + " applies past " + lsn + " on its new worker",
                MOVED,
                () -> progress(target, sink).compareTo(lsn) > 0);
    }

    private static Lsn progress(PostgresNode target, String sink) throws SQLException {
        try (ProgressTable table = ProgressTable.open(target.jdbcUrl(), PROGRESS_TABLE, sink)) {
            return table.read().endLsn();
        }
    }

    /**
     * Transactions inside one group: moves money between two accounts and nothing else (no log row, so the stamps
     * are cleared), on a thread of its own. A deadlock with a workload's transfer rolls the move back; it is not
     * counted.
     */
    private static final class MoneyMover implements Runnable {
        private final String jdbcUrl;
        private final String accounts;
        private final Random random;
        private final AtomicBoolean stopped = new AtomicBoolean();
        private final AtomicLong moved = new AtomicLong();
        private final Thread thread;
        private volatile Exception failure;

        private MoneyMover(String jdbcUrl, String schema, long seed) {
            this.jdbcUrl = jdbcUrl;
            this.accounts = new ConsistencySchema(schema).table("accounts");
            this.random = new Random(seed);
            this.thread = new Thread(this, "money-mover");
        }

        static MoneyMover start(String jdbcUrl, String schema, long seed) {
            MoneyMover mover = new MoneyMover(jdbcUrl, schema, seed);
            mover.thread.start();
            return mover;
        }

        @Override
        public void run() {
            try (Connection connection = DriverManager.getConnection(jdbcUrl);
                    PreparedStatement move = connection.prepareStatement("UPDATE " + accounts + " SET balance ="
                            + " balance + CASE WHEN id = ? THEN -1 ELSE 1 END, last_session = NULL, last_seq = NULL"
                            + " WHERE id IN (?, ?)")) {
                while (!stopped.get()) {
                    int from = 1 + random.nextInt(ConsistencySchema.ACCOUNTS);
                    int to = 1 + (from + random.nextInt(ConsistencySchema.ACCOUNTS - 1)) % ConsistencySchema.ACCOUNTS;
                    move.setInt(1, from);
                    move.setInt(2, from);
                    move.setInt(3, to);
                    try {
                        move.executeUpdate();
                        moved.incrementAndGet();
                    } catch (SQLException e) {
                        if (!"40P01".equals(e.getSQLState())) {
                            throw e;
                        }
                    }
                    TimeUnit.MILLISECONDS.sleep(20);
                }
            } catch (SQLException e) {
                failure = e;
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }

        long moved() {
            return moved.get();
        }

        void stop() throws Exception {
            stopped.set(true);
            thread.join(TimeUnit.SECONDS.toMillis(30));
            if (failure != null) {
                throw failure;
            }
        }
    }
}
