package dev.pglane.source;

import dev.pglane.connect.metrics.RateMeter;
import dev.pglane.connect.metrics.TaskMetricSet;
import dev.pglane.source.decode.LaneActivity;
import dev.pglane.source.reader.ReaderActivity;
import dev.pglane.source.reader.ReplicationReader;
import dev.pglane.source.reader.ReplicationSession;
import dev.pglane.source.seal.RefusedMessages;
import dev.pglane.source.snapshot.SnapshotRunner.Standing;
import dev.pglane.wire.Lsn;
import java.util.Map;
import java.util.concurrent.atomic.LongAdder;
import java.util.function.Function;
import org.apache.kafka.common.metrics.Gauge;
import org.apache.kafka.connect.source.SourceTaskContext;

/**
 * The source task's metrics, published through Connect's plugin metrics (Kafka 4.1+; on older
 * runtimes they are kept but not published). A fixed list of names, tagged by decoder lane where
 * per-lane, never by table or row:
 *
 * <ul>
 *   <li>{@code server-wal-lsn}, {@code received-lsn}, {@code flushed-lsn}: the server's position from its
 *       keepalives, the last message received, the position confirmed to the slot;
 *   <li>{@code lag-bytes}: WAL between the server's position and the confirmed one;
 *   <li>{@code records-rate}, {@code transactions-rate}: records handed to Connect and transactions
 *       committed, per second; {@code records-total}, {@code transactions-total}: the same, counted since the task
 *       started;
 *   <li>{@code lane-queue-depth} (tag {@code lane}): batches waiting for a decoder lane;
 *   <li>{@code reader-busy-ratio}, {@code decoder-busy-ratio} (tag {@code lane}): the share of time the
 *       reader and each lane spent working since the previous reading of the metric;
 *   <li>{@code snapshot-tables}, {@code snapshot-tables-done}, {@code snapshot-chunks-sent},
 *       {@code snapshot-rows-sent}, {@code snapshot-rows-estimated}, {@code snapshot-seconds-left},
 *       {@code snapshot-held-ms}: the snapshot the session runs (0, and -1 for the time left, when it runs none or
 *       has sent nothing yet); the last, how long its new chunks waited for {@code snapshot.pace.group};
 *   <li>{@code wal-messages-refused-total}: logical decoding messages addressed to the connector that it did not obey,
 *       since the task started (no seal of its own: written by another login; a signal without a signal topic).
 * </ul>
 */
public final class PgSourceMetrics implements ReaderActivity, LaneActivity {
    private final TaskMetricSet metrics;
    private final RateMeter records;
    private final RateMeter transactions;
    private final BusyTime reader = new BusyTime();
    private final BusyTime[] lanes;

    private volatile ReplicationSession session;

    private PgSourceMetrics(TaskMetricSet metrics, int laneCount) {
        this.metrics = metrics;
        this.lanes = new BusyTime[laneCount];
        for (int i = 0; i < laneCount; i++) {
            lanes[i] = new BusyTime();
        }
        records = metrics.rateAndTotal("records", "Records handed to Connect");
        transactions = metrics.rateAndTotal("transactions", "Transactions committed on the source");
        lsn("server-wal-lsn", "The server's WAL position as its keepalives report it", ReplicationReader::serverLsn);
        lsn("received-lsn", "Start LSN of the last message received", ReplicationReader::receivedLsn);
        lsn("flushed-lsn", "Position last confirmed to the replication slot", ReplicationReader::flushedLsn);
        gauge("lag-bytes", "WAL bytes between the server's position and the confirmed one", Map.of(), s -> {
            Lsn server = s.reader().serverLsn();
            Lsn flushed = s.reader().flushedLsn();
            return server.compareTo(flushed) > 0 && flushed.isValid() ? server.bytesSince(flushed) : 0L;
        });
        gauge(
                "slot-retained-wal-bytes",
                "WAL bytes from the slot's restart_lsn to the server's position, looked"
                        + " up every 30 s; -1 before the first look",
                Map.of(),
                s -> s.slotRetention().retainedBytes());
        gauge(
                "slot-safe-wal-bytes",
                "The slot's safe_wal_size: WAL the server may still write before the slot is at"
                        + " risk; -1 when max_slot_wal_keep_size does not limit it",
                Map.of(),
                s -> s.slotRetention().safeWalBytes());
        ratio("reader-busy-ratio", "Share of time the reader thread spent reading and dispatching", Map.of(), reader);
        snapshot("snapshot-tables", "Tables of the session's snapshot", Standing::tables);
        snapshot("snapshot-tables-done", "Tables of the session's snapshot sent in full", Standing::tablesDone);
        snapshot("snapshot-chunks-sent", "Snapshot chunks this session sent", Standing::chunksSent);
        snapshot("snapshot-rows-sent", "Snapshot rows this session sent", Standing::rowsSent);
        snapshot(
                "snapshot-rows-estimated",
                "Rows of the snapshot's tables, as statistics estimate",
                Standing::rowsEstimated);
        snapshot(
                "snapshot-held-ms",
                "Milliseconds the snapshot's new chunks waited for snapshot.pace.group's lag to fall",
                Standing::heldMillis);
        metrics.define(
                "snapshot-seconds-left",
                "Estimated seconds until the snapshot is sent, at its rate so far; -1 when unknown",
                Map.of(),
                (Gauge<Double>) (config, now) -> {
                    ReplicationSession current = session;
                    Standing standing = current == null ? null : current.snapshotStanding();
                    return standing == null ? -1.0 : standing.secondsLeft();
                });
        for (int i = 0; i < laneCount; i++) {
            int lane = i;
            Map<String, String> tags = Map.of("lane", Integer.toString(lane));
            gauge("lane-queue-depth", "Batches waiting for the decoder lane", tags, s ->
                    (long) s.lanes().queueDepth(lane));
            ratio("decoder-busy-ratio", "Share of time the decoder lane spent decoding", tags, lanes[i]);
        }
    }

    /**
     * The task's metrics, kept from the start and published by {@link #publish()}; on a runtime without
     * plugin metrics they are never published.
     */
    static PgSourceMetrics create(SourceTaskContext context, String task, int laneCount, RefusedMessages refused) {
        PgSourceMetrics created = new PgSourceMetrics(TaskMetricSet.of(context::pluginMetrics, task), laneCount);
        created.metrics.gauge(
                "wal-messages-refused-total",
                "Logical decoding messages addressed to the connector that it did not obey",
                refused::total);
        return created;
    }

    /**
     * Publishes the metrics unless done already; a previous instance of the task that has not stopped yet
     * may still hold the names.
     */
    void publish() {
        metrics.publish();
    }

    /** The session the gauges read; {@code null} between sessions. */
    void session(ReplicationSession current) {
        session = current;
    }

    void recordsEmitted(int count) {
        records.record(count);
    }

    @Override
    public void committed() {
        transactions.record(1);
    }

    @Override
    public void busy(long nanos) {
        reader.add(nanos);
    }

    @Override
    public void decoded(int lane, long busyNanos) {
        lanes[lane].add(busyNanos);
    }

    private void snapshot(String name, String description, Function<Standing, Number> value) {
        gauge(name, description, Map.of(), s -> {
            Standing standing = s.snapshotStanding();
            return standing == null ? 0L : value.apply(standing).longValue();
        });
    }

    private void lsn(String name, String description, Function<ReplicationReader, Lsn> position) {
        gauge(name, description, Map.of(), s -> position.apply(s.reader()).asLong());
    }

    private void gauge(
            String name, String description, Map<String, String> tags, Function<ReplicationSession, Long> value) {
        metrics.define(name, description, tags, (Gauge<Long>) (config, now) -> {
            ReplicationSession current = session;
            return current == null ? 0L : value.apply(current);
        });
    }

    private void ratio(String name, String description, Map<String, String> tags, BusyTime busy) {
        metrics.define(name, description, tags, (Gauge<Double>) (config, now) -> busy.ratio());
    }

    /** Busy time as it is reported, turned into a share of the wall time between two readings. */
    private static final class BusyTime {
        private final LongAdder busy = new LongAdder();
        private long readBusy;
        private long readAt = System.nanoTime();

        void add(long nanos) {
            busy.add(nanos);
        }

        synchronized double ratio() {
            long now = System.nanoTime();
            long total = busy.sum();
            double share = now == readAt ? 0.0 : (double) (total - readBusy) / (now - readAt);
            readBusy = total;
            readAt = now;
            return Math.min(1.0, share);
        }
    }
}
