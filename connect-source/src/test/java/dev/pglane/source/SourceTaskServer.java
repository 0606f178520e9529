package dev.pglane.source;

import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.pglane.wire.Lsn;
import dev.pglane.wire.TransactionKey;
import dev.pglane.wire.envelope.ChangeEnvelope;
import dev.pglane.wire.envelope.ChangeEvent;
import dev.pglane.wire.marker.Marker;
import dev.pglane.wire.marker.MarkerCodec;
import io.zonky.test.db.postgres.embedded.EmbeddedPostgres;
import java.io.IOException;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.function.Predicate;
import org.apache.kafka.common.metrics.Metrics;
import org.apache.kafka.common.metrics.PluginMetrics;
import org.apache.kafka.common.metrics.internals.PluginMetricsImpl;
import org.apache.kafka.connect.errors.RetriableException;
import org.apache.kafka.connect.json.JsonConverter;
import org.apache.kafka.connect.source.SourceRecord;
import org.junit.jupiter.api.extension.AfterAllCallback;
import org.junit.jupiter.api.extension.AfterEachCallback;
import org.junit.jupiter.api.extension.BeforeAllCallback;
import org.junit.jupiter.api.extension.ExtensionContext;

/**
 * A real PostgreSQL 17 with logical decoding for a test class of the source task, and the tasks its tests start:
 * each gets the context Connect would give it, and is stopped after its test.
 *
 * <pre>{@code @RegisterExtension static final SourceTaskServer server = new SourceTaskServer("CREATE TABLE ...");}</pre>
 */
final class SourceTaskServer implements BeforeAllCallback, AfterAllCallback, AfterEachCallback {
    private static final JsonConverter JSON_KEYS = jsonConverter(true);
    private static final JsonConverter JSON_VALUES = jsonConverter(false);
    static final long DEADLINE_NANOS = TimeUnit.SECONDS.toNanos(30);

    private final String[] setUp;
    private EmbeddedPostgres server;
    private final List<PgSourceTask> tasks = new ArrayList<>();
    private Metrics metrics = new Metrics();

    /** @param setUp statements run once the server is up */
    SourceTaskServer(String... setUp) {
        this.setUp = setUp.clone();
    }

    @Override
    public void beforeAll(ExtensionContext context) throws IOException, SQLException {
        server = EmbeddedPostgres.builder()
                .setServerConfig("wal_level", "logical")
                .start();
        sql(setUp);
    }

    @Override
    public void afterEach(ExtensionContext context) {
        tasks.forEach(PgSourceTask::stop);
        tasks.clear();
        metrics.close();
        metrics = new Metrics();
    }

    @Override
    public void afterAll(ExtensionContext context) throws IOException {
        server.close();
    }

    EmbeddedPostgres server() {
        return server;
    }

    Metrics metrics() {
        return metrics;
    }

    /** The value of the tasks' metric {@code name} (the first task's, if several have it). */
    double metricValue(String name) {
        return metrics.metrics().entrySet().stream()
                .filter(e -> e.getKey().name().equals(name))
                .mapToDouble(e -> ((Number) e.getValue().metricValue()).doubleValue())
                .findFirst()
                .orElseThrow();
    }

    /**
     * A task config capturing public.orders and public.lines under prefix {@code shop}, with slot {@code slot}, and no
     * snapshot: these tests watch the stream, whose records a snapshot of the (empty) tables would precede.
     */
    Map<String, String> config(String slot, Map<String, String> extra) {
        Map<String, String> props = PgSourceConnectorValidateTest.config(server);
        props.put("name", "task-test");
        props.put(PgSourceConfig.TOPIC_PREFIX, "shop");
        props.put(PgSourceConfig.SLOT_NAME, slot);
        props.put(PgSourceConfig.PUBLICATION_NAME, slot + "_pub");
        props.put(PgSourceConfig.TABLE_INCLUDE_LIST, "public\\.orders,public\\.lines");
        props.put(DecodingSettings.DECODER_LANES, "2");
        props.put(DecodingSettings.DECODER_BATCH_SIZE, "2");
        props.put(PgSourceConfig.STATUS_INTERVAL_MS, "1000");
        props.put(PgSourceConfig.RECONNECT_BACKOFF_INITIAL_MS, "50");
        props.put(SnapshotSettings.SNAPSHOT_MODE, "never");
        props.putAll(extra);
        return props;
    }

    /** Starts a task as Connect would, with {@code storedOffset} as its stored source offset (or none). */
    PgSourceTask start(Map<String, String> props, Map<String, Object> storedOffset) {
        PgSourceTask task = new PgSourceTask();
        // Connect gives each task its own plugin metrics, tagged with the connector and task.
        PluginMetrics taskMetrics = new PluginMetricsImpl(metrics, Map.of("task", Integer.toString(tasks.size())));
        task.initialize(new FakeTaskContext(props, storedOffset, taskMetrics));
        tasks.add(task);
        task.start(props);
        return task;
    }

    /** Polls until {@code done} holds for everything polled, acknowledging each record as Kafka would. */
    static List<SourceRecord> pollUntil(PgSourceTask task, Predicate<List<SourceRecord>> done)
            throws InterruptedException {
        List<SourceRecord> all = new ArrayList<>();
        long deadline = System.nanoTime() + DEADLINE_NANOS;
        while (!done.test(all)) {
            assertTrue(System.nanoTime() < deadline, "timed out; polled so far: " + all);
            try {
                List<SourceRecord> records = task.poll();
                if (records != null) {
                    all.addAll(records);
                    records.forEach(r -> KafkaAcks.stored(task, r));
                }
            } catch (RetriableException e) {
                // The previous session's walsender still holds the slot: the task retries after a backoff.
            }
        }
        return all;
    }

    static Predicate<List<SourceRecord>> ends(int count) {
        return records ->
                records.stream().filter(r -> marker(r) instanceof Marker.End).count() >= count;
    }

    static Marker marker(SourceRecord record) {
        return record.topic().equals("shop.transactions") ? MarkerCodec.fromStruct(value(record)) : null;
    }

    static ChangeEvent event(SourceRecord record) {
        return ChangeEnvelope.fromStruct(value(record));
    }

    /** The record's value as Connect data, read back with Kafka's JsonConverter if the task wrote JSON bytes. */
    static Object value(SourceRecord record) {
        return record.value() instanceof byte[] bytes
                ? JSON_VALUES.toConnectData(record.topic(), bytes).value()
                : record.value();
    }

    /** The xid of the record's key, read back with Kafka's JsonConverter if the task wrote JSON bytes. */
    static long keyXid(SourceRecord record) {
        Object key = record.key() instanceof byte[] bytes
                ? JSON_KEYS.toConnectData(record.topic(), bytes).value()
                : record.key();
        return TransactionKey.xid(key);
    }

    private static JsonConverter jsonConverter(boolean isKey) {
        JsonConverter converter = new JsonConverter();
        converter.configure(Map.of("schemas.enable", "true"), isKey);
        return converter;
    }

    Connection connect() throws SQLException {
        return server.getPostgresDatabase().getConnection();
    }

    void sql(String... statements) throws SQLException {
        try (Connection c = connect();
                Statement st = c.createStatement()) {
            for (String statement : statements) {
                st.execute(statement);
            }
        }
    }

    Lsn confirmedFlush(String slot) throws SQLException {
        try (Connection c = connect();
                Statement st = c.createStatement();
                ResultSet rs = st.executeQuery("SELECT confirmed_flush_lsn::text FROM pg_replication_slots"
                        + " WHERE slot_name = '" + slot + "'")) {
            rs.next();
            return Lsn.parse(rs.getString(1));
        }
    }

    void awaitConfirmedFlush(String slot, Lsn atLeast) throws SQLException {
        long deadline = System.nanoTime() + DEADLINE_NANOS;
        Lsn confirmed = confirmedFlush(slot);
        while (confirmed.compareTo(atLeast) < 0) {
            assertTrue(System.nanoTime() < deadline, "confirmed_flush_lsn stayed at " + confirmed + ", not " + atLeast);
            Thread.onSpinWait();
            confirmed = confirmedFlush(slot);
        }
    }
}
