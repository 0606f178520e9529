package dev.pglane.sink;

import dev.pglane.sink.apply.ConflictListener;
import dev.pglane.sink.assemble.AssemblerListener;
import dev.pglane.sink.assemble.SourceTransaction;
import dev.pglane.sink.progress.AppliedPosition;
import dev.pglane.sink.schedule.ApplyListener;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.LongSupplier;
import org.apache.kafka.common.metrics.Gauge;
import org.apache.kafka.common.metrics.PluginMetrics;
import org.apache.kafka.common.metrics.Sensor;
import org.apache.kafka.common.metrics.stats.CumulativeCount;
import org.apache.kafka.common.metrics.stats.Rate;
import org.apache.kafka.connect.sink.SinkTaskContext;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The sink task's metrics, registered through Connect's plugin metrics (Kafka 4.1+; on older runtimes
 * the gauges are kept but not published). A fixed list of names, never tagged by table or row:
 *
 * <ul>
 *   <li>{@code applied-lsn}: source end LSN of the last transaction committed on the target;
 *   <li>{@code lag-ms}: now minus the source commit time of that transaction while work is pending, else 0;
 *   <li>{@code transactions-rate}, {@code rows-rate}: applied per second;
 *   <li>{@code busy-workers}, {@code waiting-dependencies}, {@code waiting-turn}: the workers' state;
 *   <li>{@code buffered-bytes}, {@code buffered-transactions}: held by the assembler; {@code paused}: 1
 *       while the task paused its partitions;
 *   <li>{@code spills-total}, {@code retries-total}, {@code deadlocks-resolved-total},
 *       {@code errant-records-total}, {@code dropped-records-total};
 *   <li>{@code conflicts-total} (tag {@code kind}: insert_exists, update_missing, delete_missing).
 * </ul>
 */
public final class PgSinkMetrics implements ApplyListener, AssemblerListener, ConflictListener {
    private static final Logger log = LoggerFactory.getLogger(PgSinkMetrics.class);
    private static final String[] CONFLICT_KINDS = {"insert_exists", "update_missing", "delete_missing"};

    private final PluginMetrics metrics;
    private final AtomicLong appliedLsn = new AtomicLong();
    private final AtomicLong appliedCommitMs = new AtomicLong();
    private final AtomicLong busyWorkers = new AtomicLong();
    private final AtomicLong waitingDependencies = new AtomicLong();
    private final AtomicLong waitingTurn = new AtomicLong();
    private final AtomicLong bufferedBytes = new AtomicLong();
    private final AtomicLong bufferedTransactions = new AtomicLong();
    private final AtomicLong paused = new AtomicLong();
    private final Map<String, AtomicLong> conflicts = new ConcurrentHashMap<>();
    private final Sensor transactions;
    private final Sensor rows;
    private final Sensor spills;
    private final Sensor retries;
    private final Sensor deadlocks;
    private final Sensor errantRecords;
    private final Sensor droppedRecords;

    private PgSinkMetrics(PluginMetrics metrics) {
        this.metrics = metrics;
        for (String kind : CONFLICT_KINDS) {
            conflicts.put(kind, new AtomicLong());
        }
        transactions = rate("transactions-rate", "Transactions applied per second");
        rows = rate("rows-rate", "Rows applied per second");
        spills = count("spills-total", "Transactions spilled to disk because they exceeded the buffer");
        retries = count("retries-total", "Transactions rolled back and applied again");
        deadlocks = count(
                "deadlocks-resolved-total", "Commit-order deadlocks resolved by re-running the later transaction");
        errantRecords = count("errant-records-total", "Undecodable records reported to the dead-letter queue");
        droppedRecords =
                count("dropped-records-total", "Records dropped as duplicates, stale copies or already applied");
        gauge(
                "applied-lsn",
                "Source end LSN of the last transaction committed on the target",
                Map.of(),
                appliedLsn::get);
        gauge(
                "lag-ms",
                "Milliseconds between now and the source commit of the last applied transaction, while work is pending",
                Map.of(),
                this::lagMs);
        gauge("busy-workers", "Apply workers holding a transaction", Map.of(), busyWorkers::get);
        gauge(
                "waiting-dependencies",
                "Transactions waiting for an earlier conflicting one to commit",
                Map.of(),
                waitingDependencies::get);
        gauge("waiting-turn", "Applied transactions waiting for their commit turn", Map.of(), waitingTurn::get);
        gauge(
                "buffered-bytes",
                "Bytes of change records held in memory by the assembler",
                Map.of(),
                bufferedBytes::get);
        gauge("buffered-transactions", "Transactions held by the assembler", Map.of(), bufferedTransactions::get);
        gauge("paused", "1 while the task paused its partitions for back-pressure", Map.of(), paused::get);
        for (String kind : CONFLICT_KINDS) {
            gauge(
                    "conflicts-total",
                    "Conflicts by kind, handled by conflict.policy",
                    Map.of("kind", kind),
                    conflicts.get(kind)::get);
        }
    }

    /** The task's metrics; inert when the runtime offers no plugin metrics. */
    static PgSinkMetrics create(SinkTaskContext context) {
        PluginMetrics metrics;
        try {
            metrics = context.pluginMetrics();
        } catch (LinkageError e) {
            // A Connect runtime before Kafka 4.1 lacks SinkTaskContext.pluginMetrics().
            log.debug("No plugin metrics in this Connect runtime", e);
            metrics = null;
        }
        return new PgSinkMetrics(metrics);
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

    void buffered(long bytes, int transactionCount) {
        bufferedBytes.set(bytes);
        bufferedTransactions.set(transactionCount);
    }

    void paused(boolean isPaused) {
        paused.set(isPaused ? 1 : 0);
    }

    void errantRecord() {
        record(errantRecords, 1);
    }

    @Override
    public void committed(SourceTransaction tx, long sequence, long rowCount) {
        appliedLsn.set(tx.endLsn().asLong());
        appliedCommitMs.set(tx.end().commitTsUs() / 1000L);
        record(transactions, 1);
        record(rows, rowCount);
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
        record(retries, 1);
    }

    @Override
    public void deadlockResolved(SourceTransaction victim) {
        log.info("Commit-order deadlock: rolled back {} to let an earlier transaction commit", victim.describe());
        record(deadlocks, 1);
    }

    @Override
    public void spilled(long xid, long bytes) {
        log.info("Transaction xid {} exceeds the buffer; spilled {} bytes to disk", xid, bytes);
        record(spills, 1);
    }

    @Override
    public void dropped(String reason, long records) {
        log.debug("Dropped {} records: {}", records, reason);
        record(droppedRecords, records);
    }

    @Override
    public void conflict(String kind, TableName table) {
        conflicts.computeIfAbsent(kind, k -> new AtomicLong()).incrementAndGet();
    }

    private Sensor rate(String name, String description) {
        if (metrics == null) {
            return null;
        }
        Sensor sensor = metrics.addSensor(name);
        sensor.add(metrics.metricName(name, description, new LinkedHashMap<>()), new Rate());
        return sensor;
    }

    private Sensor count(String name, String description) {
        if (metrics == null) {
            return null;
        }
        Sensor sensor = metrics.addSensor(name);
        sensor.add(metrics.metricName(name, description, new LinkedHashMap<>()), new CumulativeCount());
        return sensor;
    }

    private void gauge(String name, String description, Map<String, String> tags, LongSupplier value) {
        if (metrics != null) {
            metrics.addMetric(metrics.metricName(name, description, new LinkedHashMap<>(tags)), (Gauge<Long>)
                    (config, now) -> value.getAsLong());
        }
    }

    private static void record(Sensor sensor, long value) {
        if (sensor != null && value > 0) {
            sensor.record(value);
        }
    }
}
