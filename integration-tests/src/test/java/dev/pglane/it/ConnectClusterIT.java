package dev.pglane.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.pglane.local.fault.ConnectCluster;
import dev.pglane.local.fault.ConnectWorkerProcess;
import dev.pglane.local.stack.PostgresNode;
import dev.pglane.wire.Lsn;
import java.nio.file.Files;
import java.sql.SQLException;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * Both connectors in a Connect cluster of two workers in one group, each in a JVM of its own and reaching the broker
 * through a link of its own ({@link ConnectCluster}), with exactly-once support for source connectors (KIP-618): every
 * worker restarted in turn under load; the worker that runs the sink task, then the one that runs the source task,
 * killed (SIGKILL) and the task going on on the other; and a worker cut off from the broker while it runs a task, whose
 * old instance lives on as a zombie next to its replacement. Each story ends with the target equal to the source,
 * nothing applied twice and the sink's progress at the source's last END, with no operator action.
 *
 * <p>The source stories have the source draw the Kafka transactions' boundaries ({@code transaction.boundary=connector},
 * transactions not streamed), one killed while a large transaction's records are on their way into an open Kafka
 * transaction, one cut off in the middle of its snapshot: a {@code read_committed} consumer then finds every
 * transaction and every snapshot chunk exactly once and whole ({@link ExactlyOnceTopics}). The sink applies every
 * transaction once either way: in the first it reads committed records only, as the README sets it up for such topics,
 * in the second everything, the aborted Kafka transactions' records too. The others keep the default
 * boundary ({@code poll}) and stream large transactions, as a source on such workers may.
 */
@Timeout(value = 300, unit = TimeUnit.SECONDS)
class ConnectClusterIT {
    /** The group notices a lost member within its 6 s session timeout, then moves its work. */
    private static final Duration MOVED = Duration.ofSeconds(90);
    /** How long the load goes on after a fault that takes a worker away for a while. */
    private static final Duration LONG_LOAD = Duration.ofSeconds(10);
    /**
     * The sink task's consumer leaves a group only by timing out when its worker is cut off: 6 s instead of the
     * consumer's 45 s, so that its replacement gets the partitions soon.
     */
    private static final Map<String, String> FAST_SINK_GROUP =
            Map.of("consumer.override.session.timeout.ms", "6000", "consumer.override.heartbeat.interval.ms", "1000");
    /** A sink of exactly-once topics, as the README sets one up: it reads only committed Kafka transactions. */
    private static final Map<String, String> FAST_COMMITTED_SINK = Map.of(
            "consumer.override.session.timeout.ms",
            "6000",
            "consumer.override.heartbeat.interval.ms",
            "1000",
            "consumer.override.isolation.level",
            "read_committed");

    @RegisterExtension
    static final SharedWorker worker = SharedWorker.exactlyOnceCluster(2);

    @RegisterExtension
    static final SourceServers servers = new SourceServers();

    private static ConnectCluster cluster() {
        return worker.connectCluster();
    }

    /** Every worker runs and reaches the broker before the next story. */
    @AfterEach
    void everyWorkerBack() {
        for (ConnectWorkerProcess member : cluster().workers()) {
            cluster().heal(member);
            if (member.isAlive()) {
                member.thaw();
            } else {
                member.start();
            }
        }
    }

    @Test
    @DisplayName("every worker stopped and started again in turn, under load and across a large transaction")
    void rollingRestart() throws Exception {
        try (FaultStory story = FaultStory.start(worker, servers, "cluster_rolling", Map.of(), FAST_SINK_GROUP)) {
            FaultStory.Moment fault = story.midLargeTransaction(LONG_LOAD);

            for (ConnectWorkerProcess member : cluster().workers()) {
                member.stop();
                awaitBothRunningOnLiveWorkers(story);
                member.start();
            }

            story.assertRecoveredFrom(fault);
        }
    }

    @Test
    @DisplayName("the worker that runs the sink task killed (SIGKILL) in the middle of a large transaction")
    void sinkWorkerKilled() throws Exception {
        try (FaultStory story = FaultStory.start(worker, servers, "cluster_sink_kill", Map.of(), FAST_SINK_GROUP)) {
            FaultStory.Moment fault = story.midLargeTransaction();
            String sink = story.run().sinkName();
            ConnectWorkerProcess victim = cluster().workerRunning(sink, 0).orElseThrow();

            victim.kill();

            cluster().awaitTaskMovedFrom(sink, 0, victim, MOVED);
            awaitBothRunningOnLiveWorkers(story);
            story.assertRecoveredFrom(fault);
        }
    }

    /**
     * The source's worker killed while a large committed transaction is on its way to Kafka (its producer held back, so
     * that this takes seconds): its Kafka transaction is open, and the replacement's producer aborts it. A {@code
     * read_committed} consumer finds the transaction once and whole; one that reads everything finds the aborted
     * copy too, which shows the kill came in the middle.
     */
    @Test
    @DisplayName("the worker that runs the source task killed (SIGKILL) while a large transaction fills an open Kafka"
            + " transaction: read_committed consumers see it once and whole")
    void sourceWorkerKilled() throws Exception {
        try (FaultStory story = FaultStory.start(
                worker, servers, "cluster_source_kill", FaultStory.CONNECTOR_BOUNDARIES, FAST_COMMITTED_SINK)) {
            FaultStory.Moment fault = story.midCommittedLargeTransaction();
            String source = story.run().source().topicPrefix();
            ConnectWorkerProcess victim = cluster().workerRunning(source, 0).orElseThrow();

            victim.kill();
            story.releaseProducer();

            cluster().awaitTaskMovedFrom(source, 0, victim, MOVED);
            awaitBothRunningOnLiveWorkers(story);
            story.assertRecoveredFrom(fault);
            ExactlyOnceTopics.Reading committed =
                    ExactlyOnceTopics.assertExactlyOnce(worker, story.run().source());
            assertEquals(FaultStory.largeRows(), committed.changesOf(story.largeXid()), "the large transaction's rows");
            String bulk = story.run().source().topicPrefix() + "." + story.schema() + ".bulk";
            long written = ExactlyOnceTopics.writtenOf(worker, story.run().source(), bulk, story.largeXid());
            assertTrue(
                    written > FaultStory.largeRows(),
                    "the kill came while the large transaction's Kafka transaction was open, so records of an aborted"
                            + " copy of it are on " + bulk + " too: " + written + " in all");
        }
    }

    /**
     * The sink's worker stalls (SIGSTOP) and is cut off from the broker while its apply waits on a lock held on the
     * target, so the old task instance still has a transaction to commit when its replacement has started on the
     * other worker. The lock goes once the replacement has claimed the progress row, then the old worker wakes: its
     * commit must fail, the replacement go on alone, and the target end equal to the source with nothing applied
     * twice.
     *
     * <p>The stall pins the timing. Cut off alone, a worker whose {@code scheduled.rebalance.max.delay.ms} is 0 (as
     * here) stops its tasks at once, and its old instance lives on only while that stop hangs (in an offset commit to
     * the unreachable broker, for a minute): the same zombie, at a moment the test cannot choose.
     */
    @Test
    @DisplayName("the sink's worker stalls and loses the broker: the old task instance commits nothing after its"
            + " replacement started")
    void sinkWorkerPartitioned() throws Exception {
        try (FaultStory story = FaultStory.start(worker, servers, "cluster_sink_cut", Map.of(), FAST_SINK_GROUP)) {
            FaultStory.Moment fault = story.underLoad(LONG_LOAD);
            SinkConnectorRun run = story.run();
            ConnectWorkerProcess zombie =
                    cluster().workerRunning(run.sinkName(), 0).orElseThrow();
            long zombieEpoch = run.progressOwnerEpoch();

            String ledger = story.schema() + ".ledger";
            Waits.until("the sink creates " + ledger + " on the target", MOVED, () -> {
                try (SqlSession session = SqlSession.open(story.target())) {
                    return (Boolean) session.queryValue("SELECT to_regclass(?) IS NOT NULL", ledger);
                }
            });
            try (SqlSession lock = SqlSession.open(story.target())) {
                lock.exec("LOCK TABLE " + ledger + " IN EXCLUSIVE MODE");
                awaitApplyWaitingOnLock(story.target(), run.sinkName());
                zombie.freeze();
                cluster().partition(zombie);

                cluster().awaitTaskMovedFrom(run.sinkName(), 0, zombie, MOVED);
                Waits.until(
                        "the replacement claims the progress row", MOVED, () -> run.progressOwnerEpoch() > zombieEpoch);
                lock.rollback();
            }
            zombie.thaw();

            String fenced = "a newer instance of the task claimed the row (owner epoch";
            Waits.until(
                    "the old instance's commit is refused: its worker logs \"" + fenced + "\"",
                    MOVED,
                    () -> Files.readString(zombie.logFile()).contains(fenced));
            cluster().heal(zombie);
            awaitBothRunningOnLiveWorkers(story);
            story.assertRecoveredFrom(fault);
        }
    }

    /**
     * The source's worker cut off from the broker: Kafka acknowledges nothing of its task instance any more, so the slot
     * must not move as long as that instance holds it, while the load goes on; the replacement on the other worker
     * waits for the slot instead of failing, and takes it over once the old instance lets go, with no help.
     */
    @Test
    @DisplayName("the source's worker cut off from the broker: the old task instance confirms nothing to the slot")
    void sourceWorkerPartitioned() throws Exception {
        int rows = 30_000;
        try (FaultStory story = FaultStory.startOverExistingRows(
                worker, servers, "cluster_source_cut", rows, FaultStory.CONNECTOR_BOUNDARIES, FAST_SINK_GROUP)) {
            FaultStory.Moment fault = story.midSnapshot(rows, LONG_LOAD);
            SourceConnectorRun source = story.run().source();
            ConnectWorkerProcess zombie =
                    cluster().workerRunning(source.topicPrefix(), 0).orElseThrow();
            long oldHolder = slotState(story.source(), source.slot()).holder();

            cluster().partition(zombie);
            Lsn confirmedAtCut = awaitSlotSettled(story.source(), source.slot());
            Lsn walAtCut = walInsertLsn(story.source());

            cluster().awaitTaskMovedFrom(source.topicPrefix(), 0, zombie, MOVED);
            Waits.until("the replacement holds the slot " + source.slot(), MOVED, () -> {
                SlotState slot = slotState(story.source(), source.slot());
                if (slot.holder() == oldHolder || slot.holder() == 0) {
                    assertEquals(confirmedAtCut, slot.confirmed(), "the slot moved before the replacement held it");
                    return false;
                }
                return true;
            });
            assertTrue(walInsertLsn(story.source()).compareTo(walAtCut) > 0, "the load wrote on after the cut");

            cluster().heal(zombie);
            awaitBothRunningOnLiveWorkers(story);
            story.assertRecoveredFrom(fault);
            ExactlyOnceTopics.assertExactlyOnce(worker, source);
        }
    }

    /** Both connectors' tasks run, as a worker that runs and reaches the broker reports them, on such a worker. */
    private static void awaitBothRunningOnLiveWorkers(FaultStory story) {
        for (String connector :
                List.of(story.run().source().topicPrefix(), story.run().sinkName())) {
            Waits.until(
                    connector + " runs on a live worker",
                    MOVED,
                    () -> cluster()
                            .workerRunning(connector, 0)
                            .filter(ConnectWorkerProcess::isAlive)
                            .isPresent());
        }
    }

    /** A session of the sink waits for a lock on the target: its transaction is open and cannot commit. */
    private static void awaitApplyWaitingOnLock(PostgresNode target, String sinkName) {
        Waits.until("an apply session of " + sinkName + " waits for the lock", MOVED, () -> {
            try (SqlSession session = SqlSession.open(target)) {
                return ((Number) session.queryValue(
                                        "SELECT count(*) FROM pg_stat_activity WHERE application_name LIKE ?"
                                                + " AND wait_event_type = 'Lock'",
                                        "pglane-" + sinkName + "%"))
                                .longValue()
                        > 0;
            }
        });
    }

    /**
     * The slot's confirmed position once it has stopped moving: a confirmation on its way when the link broke may
     * still land for a moment.
     */
    private static Lsn awaitSlotSettled(PostgresNode source, String slot) throws SQLException {
        Lsn[] last = {slotState(source, slot).confirmed()};
        long[] stableSince = {System.nanoTime()};
        Waits.until("the slot " + slot + " stops moving", MOVED, () -> {
            Lsn now = slotState(source, slot).confirmed();
            if (!now.equals(last[0])) {
                last[0] = now;
                stableSince[0] = System.nanoTime();
            }
            return System.nanoTime() - stableSince[0] > TimeUnit.SECONDS.toNanos(2);
        });
        return last[0];
    }

    /** @param holder the pid of the walsender that holds the slot, 0 if none does */
    private record SlotState(long holder, Lsn confirmed) {}

    /** Both read at once, so that a confirmation is never put down to the wrong holder. */
    private static SlotState slotState(PostgresNode source, String slot) throws SQLException {
        try (SqlSession session = SqlSession.open(source)) {
            String state = (String) session.queryValue(
                    "SELECT coalesce(active_pid, 0) || ' ' || confirmed_flush_lsn FROM pg_replication_slots"
                            + " WHERE slot_name = ?",
                    slot);
            String[] parts = state.split(" ");
            return new SlotState(Long.parseLong(parts[0]), Lsn.parse(parts[1]));
        }
    }

    private static Lsn walInsertLsn(PostgresNode source) throws SQLException {
        try (SqlSession session = SqlSession.open(source)) {
            return Lsn.parse((String) session.queryValue("SELECT pg_current_wal_insert_lsn()::text"));
        }
    }
}
