package dev.pglane.source;

import dev.pglane.connect.metrics.PluginMetricsLookup;
import dev.pglane.source.decode.LaneActivity;
import dev.pglane.source.reader.ReaderActivity;
import dev.pglane.source.reader.ReplicationReader;
import dev.pglane.source.reader.ReplicationSession;
import dev.pglane.wire.Lsn;
import java.util.LinkedHashMap;
import java.util.concurrent.atomic.LongAdder;
import java.util.function.Function;
import org.apache.kafka.common.metrics.Gauge;
import org.apache.kafka.common.metrics.PluginMetrics;
import org.apache.kafka.common.metrics.Sensor;
import org.apache.kafka.common.metrics.stats.Rate;
import org.apache.kafka.connect.source.SourceTaskContext;

/**
 * The source task's metrics, registered through Connect's plugin metrics (Kafka 4.1+; on older
 * runtimes there are none, and every hook is a no-op). A fixed list of names, tagged by decoder lane
 * where per-lane, never by table or row:
 *
 * <ul>
 *   <li>{@code server-wal-lsn}, {@code received-lsn}, {@code flushed-lsn}: the server's position from its
 *       keepalives, the last message received, the position confirmed to the slot;
 *   <li>{@code lag-bytes}: WAL between the server's position and the confirmed one;
 *   <li>{@code records-rate}, {@code transactions-rate}: records handed to Connect and transactions
 *       committed, per second;
 *   <li>{@code lane-queue-depth} (tag {@code lane}): batches waiting for a decoder lane;
 *   <li>{@code reader-busy-ratio}, {@code decoder-busy-ratio} (tag {@code lane}): the share of time the
 *       reader and each lane spent working since the previous reading of the metric.
 * </ul>
 */
public final class PgSourceMetrics implements ReaderActivity, LaneActivity {
    private final PluginMetrics metrics;
    private final Sensor records;
    private final Sensor transactions;
    private final BusyTime reader = new BusyTime();
    private final BusyTime[] lanes;

    private volatile ReplicationSession session;

    private PgSourceMetrics(PluginMetrics metrics, int laneCount) {
        this.metrics = metrics;
        this.lanes = new BusyTime[laneCount];
        for (int i = 0; i < laneCount; i++) {
            lanes[i] = new BusyTime();
        }
        if (metrics == null) {
            records = null;
            transactions = null;
            return;
        }
        records = rate("records-rate", "Records handed to Connect per second");
        transactions = rate("transactions-rate", "Transactions committed on the source per second");
        lsn("server-wal-lsn", "The server's WAL position as its keepalives report it", ReplicationReader::serverLsn);
        lsn("received-lsn", "Start LSN of the last message received", ReplicationReader::receivedLsn);
        lsn("flushed-lsn", "Position last confirmed to the replication slot", ReplicationReader::flushedLsn);
        gauge(
                "lag-bytes",
                "WAL bytes between the server's position and the confirmed one",
                new LinkedHashMap<>(),
                s -> {
                    Lsn server = s.reader().serverLsn();
                    Lsn flushed = s.reader().flushedLsn();
                    return server.compareTo(flushed) > 0 && flushed.isValid() ? server.bytesSince(flushed) : 0L;
                });
        ratio(
                "reader-busy-ratio",
                "Share of time the reader thread spent reading and dispatching",
                new LinkedHashMap<>(),
                reader);
        for (int i = 0; i < laneCount; i++) {
            int lane = i;
            LinkedHashMap<String, String> tags = new LinkedHashMap<>();
            tags.put("lane", Integer.toString(lane));
            gauge("lane-queue-depth", "Batches waiting for the decoder lane", tags, s ->
                    (long) s.lanes().queueDepth(lane));
            ratio(
                    "decoder-busy-ratio",
                    "Share of time the decoder lane spent decoding",
                    new LinkedHashMap<>(tags),
                    lanes[i]);
        }
    }

    /** The task's metrics, or inert hooks when the runtime offers no plugin metrics. */
    static PgSourceMetrics create(SourceTaskContext context, int laneCount) {
        PluginMetrics metrics = PluginMetricsLookup.of(context::pluginMetrics);
        return new PgSourceMetrics(metrics, laneCount);
    }

    /** The session the gauges read; {@code null} between sessions. */
    void session(ReplicationSession current) {
        session = current;
    }

    void recordsEmitted(int count) {
        if (records != null && count > 0) {
            records.record(count);
        }
    }

    @Override
    public void committed() {
        if (transactions != null) {
            transactions.record();
        }
    }

    @Override
    public void busy(long nanos) {
        reader.add(nanos);
    }

    @Override
    public void decoded(int lane, long busyNanos) {
        lanes[lane].add(busyNanos);
    }

    private Sensor rate(String name, String description) {
        Sensor sensor = metrics.addSensor(name);
        sensor.add(metrics.metricName(name, description, new LinkedHashMap<>()), new Rate());
        return sensor;
    }

    private void lsn(String name, String description, Function<ReplicationReader, Lsn> position) {
        gauge(
                name,
                description,
                new LinkedHashMap<>(),
                s -> position.apply(s.reader()).asLong());
    }

    private void gauge(
            String name,
            String description,
            LinkedHashMap<String, String> tags,
            Function<ReplicationSession, Long> value) {
        metrics.addMetric(metrics.metricName(name, description, tags), (Gauge<Long>) (config, now) -> {
            ReplicationSession current = session;
            return current == null ? 0L : value.apply(current);
        });
    }

    private void ratio(String name, String description, LinkedHashMap<String, String> tags, BusyTime busy) {
        metrics.addMetric(metrics.metricName(name, description, tags), (Gauge<Double>) (config, now) -> busy.ratio());
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
