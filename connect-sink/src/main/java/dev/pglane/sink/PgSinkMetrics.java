package dev.pglane.sink;

import dev.pglane.connect.metrics.RateMeter;
import dev.pglane.connect.metrics.TaskMetricSet;
import dev.pglane.sink.apply.ConflictListener;
import dev.pglane.sink.apply.SequenceListener;
import dev.pglane.sink.assemble.AssemblerListener;
import dev.pglane.sink.assemble.SourceTransaction;
import dev.pglane.sink.flow.SpillCap;
import dev.pglane.sink.progress.AppliedPosition;
import dev.pglane.sink.schedule.ApplyListener;
import dev.pglane.sink.target.TableName;
import dev.pglane.wire.Xid;
import dev.pglane.wire.marker.SnapshotChunk;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.LongAdder;
import org.apache.kafka.common.metrics.Gauge;
import org.apache.kafka.connect.sink.SinkTaskContext;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The sink task's metrics, published through Connect's plugin metrics (Kafka 4.1+; on older runtimes
 * they are kept but not published). A fixed list of names, never tagged by table or row:
 *
 * <ul>
 *   <li>{@code applied-lsn}: source end LSN of the last transaction committed on the target;
 *   <li>{@code lag-ms}: now minus the source commit time of that transaction while work is pending, else 0;
 *   <li>{@code transactions-rate}, {@code rows-rate}: applied per second; {@code transactions-total},
 *       {@code rows-total}: applied since the task started;
 *   <li>{@code busy-workers}, {@code waiting-dependencies}, {@code waiting-turn}: the workers' and the queue's state;
 *   <li>{@code buffered-bytes}, {@code buffered-transactions}: held by the assembler; {@code paused}: 1
 *       while the task paused all its partitions for back-pressure; {@code paused-partitions}: partitions
 *       paused, also those paused because they ran ahead of the others;
 *   <li>{@code spilled-bytes}: the spill files on disk; {@code spill-cap-pauses-total}: times they reached
 *       spill.max.bytes, which pauses the partitions the next transaction does not wait for;
 *   <li>{@code head-wait-ms}: how long the next transaction in commit order has had its END but not all its
 *       records (logged past transaction.wait.warn.ms, naming the topics);
 *   <li>{@code outside-lock-waits-total}: times the next transaction to commit waited for a lock of a session
 *       outside the sink (each is logged with that session);
 *   <li>{@code spills-total}, {@code retries-total}, {@code overlap-starts-total}, {@code overlap-reruns-total},
 *       {@code deadlocks-resolved-total}, {@code errant-records-total}, {@code dropped-records-total};
 *   <li>{@code sequence-values-skipped-total}: sequence values skipped, or clamped to their sequence's bounds (each
 *       reason logged as a WARN);
 *   <li>{@code abandoned-transactions-total}: copies without END (and xids of undecodable records) that waited past
 *       the bound on unfinished transactions and were dropped, each logged with its positions;
 *   <li>{@code conflicts-total} (tag {@code kind}: insert_exists, update_missing, delete_missing);
 *   <li>{@code snapshot-pending-misses-total} (tag {@code kind}, as for conflicts): changes of a table whose snapshot
 *       was pending that found the target otherwise than they expected, which is no conflict;
 *   <li>{@code snapshot-chunks-applied-total}: snapshot chunks committed on the target; {@code snapshot-tables-done}
 *       and {@code snapshot-complete} (1 once the last chunk committed): see {@link SnapshotProgress}.
 * </ul>
 */
public final class PgSinkMetrics
        implements ApplyListener, AssemblerListener, ConflictListener, SequenceListener, SpillCap.Listener {
    private static final Logger log = LoggerFactory.getLogger(PgSinkMetrics.class);
    private static final String[] CONFLICT_KINDS = {INSERT_EXISTS, UPDATE_MISSING, DELETE_MISSING};

    private final TaskMetricSet metrics;
    private final AtomicLong appliedLsn = new AtomicLong();
    private final AtomicLong appliedCommitMs = new AtomicLong();
    private final AtomicLong busyWorkers = new AtomicLong();
    private final AtomicLong waitingDependencies = new AtomicLong();
    private final AtomicLong waitingTurn = new AtomicLong();
    private final AtomicLong bufferedBytes = new AtomicLong();
    private final AtomicLong bufferedTransactions = new AtomicLong();
    private final AtomicLong paused = new AtomicLong();
    private final AtomicLong pausedPartitions = new AtomicLong();
    private final AtomicLong spilledBytes = new AtomicLong();
    private final AtomicLong headWaitMs = new AtomicLong();
    private final DropWarnings dropWarnings = new DropWarnings();
    private final Map<String, LongAdder> conflicts;
    private final Map<String, LongAdder> pendingSnapshotMisses;
    private final SnapshotProgress snapshot = new SnapshotProgress();
    private final LongAdder snapshotChunks;
    private final RateMeter transactions;
    private final RateMeter rows;
    private final LongAdder spills;
    private final LongAdder spillCapPauses;
    private final LongAdder retries;
    private final LongAdder aheadStarts;
    private final LongAdder aheadReruns;
    private final LongAdder deadlocks;
    private final LongAdder outsideLockWaits;
    private final LongAdder errantRecords;
    private final LongAdder droppedRecords;
    private final LongAdder abandonedTransactions;
    private final LongAdder perKeyRecords;
    private final LongAdder sequenceSkips;
    /** Generation of the last copy replaced by a re-sent one: a killed run logs once, not per transaction. */
    private long lastLostGeneration = -1;

    private PgSinkMetrics(TaskMetricSet metrics) {
        this.metrics = metrics;
        transactions = metrics.rateAndTotal("transactions", "Transactions applied");
        rows = metrics.rateAndTotal("rows", "Rows applied");
        spills = metrics.total("spills-total", "Transactions spilled to disk because they exceeded the buffer");
        spillCapPauses = metrics.total(
                "spill-cap-pauses-total",
                "Times the spill files reached spill.max.bytes and the task paused the partitions the next"
                        + " transaction does not wait for");
        retries = metrics.total("retries-total", "Transactions rolled back and applied again");
        aheadStarts = metrics.total(
                "overlap-starts-total",
                "Transactions that started before one they depend on committed (apply.overlap)");
        aheadReruns = metrics.total(
                "overlap-reruns-total",
                "Transactions that started before one they depend on committed (apply.overlap), found its rows not"
                        + " yet committed, and were applied again after it");
        deadlocks = metrics.total(
                "deadlocks-resolved-total", "Commit-order deadlocks resolved by re-running the later transaction");
        outsideLockWaits = metrics.total(
                "outside-lock-waits-total",
                "Times the next transaction to commit was found waiting for a lock held outside the sink");
        errantRecords = metrics.total("errant-records-total", "Undecodable records reported to the dead-letter queue");
        droppedRecords = metrics.total(
                "dropped-records-total", "Records dropped as duplicates, stale copies or already applied");
        abandonedTransactions = metrics.total(
                "abandoned-transactions-total",
                "Transactions whose END never came, dropped once they waited past the bound so that they stop"
                        + " holding back consumer offsets");
        perKeyRecords = metrics.total(
                "per-key-records-skipped-total",
                "Tombstones and key moves' deletes, which a source keying changes by row writes for per-key consumers");
        sequenceSkips = metrics.total(
                "sequence-values-skipped-total",
                "Sequence values skipped, or clamped to their sequence's bounds (each reason logged as a WARN)");
        metrics.gauge("applied-lsn", "Source end LSN of the last transaction committed on the target", appliedLsn::get);
        metrics.gauge(
                "lag-ms",
                "Milliseconds between now and the source commit of the last applied transaction, while work is pending",
                this::lagMs);
        metrics.gauge("busy-workers", "Apply workers holding a transaction", busyWorkers::get);
        metrics.gauge(
                "waiting-dependencies",
                "Transactions waiting for an earlier conflicting one to commit",
                waitingDependencies::get);
        metrics.gauge("waiting-turn", "Applied transactions waiting for their commit turn", waitingTurn::get);
        metrics.gauge("buffered-bytes", "Bytes of change records held in memory by the assembler", bufferedBytes::get);
        metrics.gauge("buffered-transactions", "Transactions held by the assembler", bufferedTransactions::get);
        metrics.gauge("spilled-bytes", "Bytes of spill files on disk", spilledBytes::get);
        metrics.gauge(
                "head-wait-ms",
                "Milliseconds the next transaction in commit order has waited for records its END counts",
                headWaitMs::get);
        metrics.gauge("paused", "1 while the task paused all its partitions for back-pressure", paused::get);
        metrics.gauge(
                "paused-partitions",
                "Partitions paused, for back-pressure or because they ran ahead of the others",
                pausedPartitions::get);
        conflicts = totalsByKind("conflicts-total", "Conflicts by kind, handled by conflict.policy");
        pendingSnapshotMisses = totalsByKind(
                "snapshot-pending-misses-total",
                "Changes of tables whose snapshot was pending that found the target otherwise than they expected (a"
                        + " row not there yet, or already there), by kind; expected during a snapshot, not conflicts");
        snapshotChunks = metrics.total("snapshot-chunks-applied-total", "Snapshot chunks committed on the target");
        metrics.gauge(
                "snapshot-tables-done",
                "Tables of the latest snapshot whose last chunk this task run committed",
                snapshot::tablesDone);
        metrics.gauge(
                "snapshot-complete",
                "1 once this task run committed the last chunk of the latest snapshot, else 0",
                snapshot::complete);
    }

    /** One running total per conflict kind, told apart by the tag {@code kind}. */
    private Map<String, LongAdder> totalsByKind(String name, String description) {
        Map<String, LongAdder> totals = new ConcurrentHashMap<>();
        for (String kind : CONFLICT_KINDS) {
            LongAdder count = new LongAdder();
            totals.put(kind, count);
            metrics.define(name, description, Map.of("kind", kind), (Gauge<Long>) (config, now) -> count.sum());
        }
        return totals;
    }

    /**
     * The task's metrics, kept from the start and published by {@link #publish()}; on a runtime without
     * plugin metrics they are never published.
     */
    static PgSinkMetrics create(SinkTaskContext context, String task) {
        return new PgSinkMetrics(TaskMetricSet.of(context::pluginMetrics, task));
    }

    /**
     * Publishes the metrics unless done already; a previous instance of the task that has not stopped yet
     * may still hold the names.
     */
    void publish() {
        metrics.publish();
    }

    private long lagMs() {
        boolean pending = busyWorkers.get() > 0 || bufferedTransactions.get() > 0;
        long commitMs = appliedCommitMs.get();
        return pending && commitMs > 0 ? Math.max(0L, System.currentTimeMillis() - commitMs) : 0L;
    }

    void applied(AppliedPosition position) {
        appliedLsn.set(position.endLsn().asLong());
        appliedCommitMs.set(position.commitTsUs() / 1000L);
    }

    void buffered(long bytes, int transactionCount, long spilled) {
        bufferedBytes.set(bytes);
        bufferedTransactions.set(transactionCount);
        spilledBytes.set(spilled);
    }

    void paused(boolean all, int partitions) {
        paused.set(all ? 1 : 0);
        pausedPartitions.set(partitions);
    }

    void errantRecord() {
        errantRecords.increment();
    }

    void perKeyRecordSkipped() {
        perKeyRecords.increment();
    }

    @Override
    public void committed(SourceTransaction tx, long sequence, long rowCount) {
        appliedLsn.set(tx.endLsn().asLong());
        appliedCommitMs.set(tx.end().commitTsUs() / 1000L);
        transactions.record(tx.transactionCount());
        rows.record(rowCount);
        // a chunk always ends its group (TransactionGroups), so the group's END is the chunk's
        SnapshotChunk chunk = tx.end().snapshot();
        if (chunk != null) {
            snapshotChunks.increment();
            snapshot.applied(chunk, tx);
        }
    }

    @Override
    public void waiting(int onDependencies, int onTurn, int busy) {
        waitingDependencies.set(onDependencies);
        waitingTurn.set(onTurn);
        busyWorkers.set(busy);
    }

    @Override
    public void retried(SourceTransaction tx, String reason) {
        log.info("Applying {} again: {}", tx.describe(), reason);
        retries.increment();
    }

    @Override
    public void startedAhead(SourceTransaction tx) {
        aheadStarts.increment();
    }

    @Override
    public void ranAhead(SourceTransaction tx, String reason) {
        log.debug("Applying {} again after the transaction it ran ahead of: {}", tx.describe(), reason);
        aheadReruns.increment();
    }

    @Override
    public void blockedOutside(SourceTransaction tx) {
        outsideLockWaits.increment();
    }

    @Override
    public void deadlockResolved(SourceTransaction victim) {
        log.info("Commit-order deadlock: rolled back {} to let an earlier transaction commit", victim.describe());
        deadlocks.increment();
    }

    @Override
    public void spilled(long xid, long bytes) {
        log.debug("Transaction xid {} exceeds the buffer; spilled {} bytes to disk", xid, bytes);
        spills.increment();
    }

    @Override
    public void spilledOverCap(long xid, long generation, long bytes, long maxBytes) {
        log.warn(
                "Transaction xid {} (generation {}) alone holds {} bytes of spill files, more than spill.max.bytes"
                        + " ({}); it still completes, since the partitions the next transaction in commit order"
                        + " waits for always flow, and the spill files stay over the cap until it is applied",
                Xid.format(xid),
                generation,
                bytes,
                maxBytes);
    }

    @Override
    public void spillCapReached(long bytes, long maxBytes, boolean warn, int unwarned) {
        spillCapPauses.increment();
        if (warn) {
            log.warn(
                    "Spill files hold {} bytes, more than spill.max.bytes ({}): pausing the partitions the next"
                            + " transaction in commit order does not wait for until they fall below {}{}",
                    bytes,
                    maxBytes,
                    maxBytes / 2,
                    unwarned > 0 ? " (reached " + unwarned + " more times since the last warning)" : "");
        } else {
            log.debug("Spill files hold {} bytes, more than spill.max.bytes ({}) again", bytes, maxBytes);
        }
    }

    @Override
    public void spillCapCleared(long bytes, long maxBytes, boolean warned) {
        if (warned) {
            log.info("Spill files are down to {} bytes, under half of spill.max.bytes ({}): resuming", bytes, maxBytes);
        } else {
            log.debug("Spill files are down to {} bytes: resuming", bytes);
        }
    }

    @Override
    public void resent(long xid, long lostGeneration, long resentGeneration) {
        if (lostGeneration == lastLostGeneration) {
            log.debug(
                    "xid {}: applying the copy of generation {} in place of {}", xid, resentGeneration, lostGeneration);
            return;
        }
        lastLostGeneration = lostGeneration;
        log.info(
                "Copies of generation {} lost records with the source run that wrote them (first: xid {}); applying"
                        + " the copies its successor sent in their place (each one logged at DEBUG)",
                lostGeneration,
                xid);
    }

    @Override
    public void dropped(String reason, long records) {
        dropWarnings.dropped(reason, records);
        droppedRecords.add(records);
    }

    @Override
    public void abandoned(long xid, long records) {
        abandonedTransactions.increment();
    }

    /** How long the next transaction in commit order has waited for its records, 0 if it waits for none. */
    void headWait(long waitedMs) {
        headWaitMs.set(waitedMs);
    }

    @Override
    public void sequenceValueSkipped() {
        sequenceSkips.increment();
    }

    @Override
    public void conflict(String kind, TableName table) {
        increment(conflicts, kind);
    }

    @Override
    public void pendingSnapshotMiss(String kind, TableName table) {
        increment(pendingSnapshotMisses, kind);
    }

    private static void increment(Map<String, LongAdder> totals, String kind) {
        LongAdder count = totals.get(kind);
        if (count != null) {
            count.increment();
        }
    }
}
