package dev.pglane.sink;

import dev.pglane.connect.config.DatabaseSettings;
import dev.pglane.sink.apply.TargetServer;
import dev.pglane.sink.decode.DecodeSettings;
import dev.pglane.wire.Lsn;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.metrics.Metrics;
import org.apache.kafka.common.metrics.internals.PluginMetricsImpl;
import org.apache.kafka.connect.errors.ConnectException;
import org.apache.kafka.connect.sink.SinkRecord;

/**
 * One run of a fresh {@link PgSinkTask} over a stream of records as bytes (payload.format=json or avro), against an emptied
 * target, driven the way Connect drives it, until the target's progress reaches {@code through}, the task stops,
 * or it has nothing left to do; with what it reported on the way.
 */
final class MutationRound implements AutoCloseable {
    /** How long a round may take before the task counts as hung. */
    static final Duration HANG = Duration.ofSeconds(20);
    /** How long a round may show no change before its task counts as done with what it could apply. */
    private static final Duration QUIET = Duration.ofMillis(150);

    /** What the task did with a stream. */
    record Outcome(
            Lsn progress,
            List<SinkRecord> deadLettered,
            List<Throwable> causes,
            ConnectException stopped,
            Map<String, Long> metrics,
            List<String> rows) {

        long metric(String name) {
            return metrics.getOrDefault(name, 0L);
        }
    }

    private final TargetServer target;
    private final CapturedStream captured;
    private final List<String> tables;
    /** The sink's settings for how it reads the records ({@code payload.format} and what goes with it). */
    private final Map<String, String> format;
    /** One session for the test's own statements: a new one per progress check would cost more than the round. */
    private final Connection admin;

    MutationRound(TargetServer target, CapturedStream captured, List<String> tables, Map<String, String> format)
            throws SQLException {
        this.target = target;
        this.captured = captured;
        this.tables = tables;
        this.format = Map.copyOf(format);
        this.admin = target.connect();
    }

    /** The target's applied end LSN, or null while it has none. */
    private Lsn progress() throws SQLException {
        try (Statement st = admin.createStatement();
                ResultSet rs = st.executeQuery("SELECT to_regclass('public.pglane_progress') IS NOT NULL")) {
            rs.next();
            if (!rs.getBoolean(1)) {
                return null;
            }
        }
        try (Statement st = admin.createStatement();
                ResultSet rs = st.executeQuery("SELECT end_lsn::text FROM public.pglane_progress")) {
            return rs.next() ? Lsn.parse(rs.getString(1)) : null;
        }
    }

    /**
     * Runs {@code stream} until the target's progress reaches {@code through} or {@code transactions} source
     * transactions were applied (a spoiled END may move the last end LSN), the task stops, or it settles.
     */
    Outcome run(List<SinkRecord> stream, Lsn through, long transactions) throws Exception {
        try (Statement st = admin.createStatement()) {
            st.execute("TRUNCATE " + String.join(", ", tables));
            st.execute("DO $$ BEGIN IF to_regclass('public.pglane_progress') IS NOT NULL THEN"
                    + " TRUNCATE public.pglane_progress; END IF; END $$");
        }
        FakeSinkTaskContext context = new FakeSinkTaskContext(new ArrayList<>(captured.partitions()));
        List<SinkRecord> deadLettered = new ArrayList<>();
        List<Throwable> causes = new ArrayList<>();
        context.reporter = (record, error) -> {
            deadLettered.add(record);
            causes.add(error);
            return null;
        };
        Metrics registry = new Metrics();
        context.metrics = new PluginMetricsImpl(registry, Map.of("connector", "mutation", "task", "0"));
        PgSinkTask task = start(context);
        ConnectException stopped = null;
        try {
            ConnectLoop connect = new ConnectLoop(task, context);
            connect.deliver(stream);
            drive(task, connect, stream, registry, through, transactions);
        } catch (ConnectException e) {
            stopped = e;
        } finally {
            task.stop();
        }
        List<String> rows = new ArrayList<>();
        for (String table : tables) {
            rows.addAll(target.rows(
                    "SELECT '" + table + ":' || id || ' ' || to_jsonb(t)::text FROM " + table + " t ORDER BY id"));
        }
        return new Outcome(progress(), deadLettered, causes, stopped, values(registry), rows);
    }

    @Override
    public void close() throws SQLException {
        admin.close();
    }

    /** Calls put() and preCommit() as Connect does while nothing arrives, until done or quiet. */
    private void drive(
            PgSinkTask task,
            ConnectLoop connect,
            List<SinkRecord> stream,
            Metrics registry,
            Lsn through,
            long transactions)
            throws SQLException {
        Map<TopicPartition, OffsetAndMetadata> offsets = new HashMap<>();
        stream.forEach(r -> offsets.merge(
                new TopicPartition(r.topic(), r.kafkaPartition()),
                new OffsetAndMetadata(r.kafkaOffset() + 1),
                (a, b) -> a.offset() >= b.offset() ? a : b));
        long deadline = System.nanoTime() + HANG.toNanos();
        String last = "";
        long lastChange = System.nanoTime();
        while (System.nanoTime() < deadline) {
            connect.deliver(List.of());
            task.preCommit(offsets);
            Lsn progress = progress();
            Map<String, Long> metrics = values(registry);
            if ((progress != null && progress.compareTo(through) >= 0)
                    || metrics.getOrDefault("transactions-total", 0L) >= transactions) {
                return;
            }
            String state = progress + " " + metrics.get("buffered-transactions") + " " + metrics.get("busy-workers")
                    + " " + metrics.get("waiting-turn") + " " + metrics.get("transactions-total");
            if (!state.equals(last)) {
                last = state;
                lastChange = System.nanoTime();
            } else if (System.nanoTime() - lastChange > QUIET.toNanos() && settled(metrics)) {
                return;
            }
            Thread.onSpinWait();
        }
        throw new AssertionError("the task neither finished nor settled within " + HANG + ": " + last);
    }

    /**
     * Whether the task has stopped short for a reason it tells: it dropped records, or the next transaction waits for
     * records (head-wait-ms). Without either, a task that applies nothing more is waited for until {@link #HANG}.
     */
    private static boolean settled(Map<String, Long> metrics) {
        long told = metrics.getOrDefault("dropped-records-total", 0L)
                + metrics.getOrDefault("abandoned-transactions-total", 0L)
                + metrics.getOrDefault("per-key-records-skipped-total", 0L)
                + metrics.getOrDefault("head-wait-ms", 0L);
        return told > 0 && metrics.getOrDefault("busy-workers", 0L) == 0;
    }

    private PgSinkTask start(FakeSinkTaskContext context) {
        Map<String, String> props = new HashMap<>();
        props.put("name", "mutation");
        props.put("topics.regex", captured.prefix() + "\\..*");
        props.put(DatabaseSettings.HOST, "127.0.0.1");
        props.put(DatabaseSettings.PORT, Integer.toString(target.endpoint().port()));
        props.put(DatabaseSettings.NAME, "postgres");
        props.put(DatabaseSettings.USER, "postgres");
        props.put(DatabaseSettings.SSLMODE, "disable");
        props.put(PgSinkConfig.SOURCE_TOPIC_PREFIX, captured.prefix());
        props.put(PgSinkConfig.APPLY_WORKERS, "2");
        props.putAll(format);
        props.put(DecodeSettings.DECODE_THREADS, "2");
        props.put(BufferingSettings.TRANSACTION_WAIT_WARN_MS, "0");
        PgSinkTask task = new PgSinkTask();
        task.initialize(context);
        task.start(props);
        return task;
    }

    private static Map<String, Long> values(Metrics registry) {
        Map<String, Long> values = new HashMap<>();
        registry.metrics().forEach((name, metric) -> {
            if (metric.metricValue() instanceof Number number) {
                values.merge(name.name(), number.longValue(), Long::sum);
            }
        });
        return values;
    }
}
