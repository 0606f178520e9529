package dev.pglane.source;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.pglane.wire.marker.Marker;
import dev.pglane.wire.marker.MarkerCodec;
import io.zonky.test.db.postgres.embedded.EmbeddedPostgres;
import java.io.IOException;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.locks.LockSupport;
import java.util.function.BooleanSupplier;
import org.apache.kafka.common.metrics.Metrics;
import org.apache.kafka.common.metrics.internals.PluginMetricsImpl;
import org.apache.kafka.connect.source.SourceRecord;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * {@code stop()} while the pipeline is full in the middle of a large transaction, the way Connect stops a
 * task it restarts: it no longer polls, and a task that has not stopped within
 * {@code task.shutdown.graceful.timeout.ms} (5 s) is cancelled with its metrics still registered, so the
 * next task of the connector fails to register them. Stopping must not wait for the server to finish
 * sending the transaction.
 */
class PgSourceTaskStopTest {
    /** Far below Connect's 5 s, since on a busy machine the task thread and Connect need the rest. */
    private static final Duration STOP_BUDGET = Duration.ofMillis(1_000);
    /** Enough decoded data that the server is still sending it long after the pipeline filled. */
    private static final int ROWS = 800_000;

    private static final int QUEUE_CAPACITY = 2;
    private static EmbeddedPostgres server;

    private final Metrics metrics = new Metrics();
    private PgSourceTask task;

    @BeforeAll
    static void startServer() throws IOException, SQLException {
        server = EmbeddedPostgres.builder()
                .setServerConfig("wal_level", "logical")
                .start();
        sql("CREATE TABLE public.big (id int PRIMARY KEY, pad text)");
    }

    @AfterAll
    static void stopServer() throws IOException {
        server.close();
    }

    @AfterEach
    void stopTask() {
        if (task != null) {
            task.stop();
        }
        metrics.close();
    }

    @Test
    void stopsPromptlyAndFreesTheSlotWhileTheServerIsMidLargeTransaction() throws Exception {
        Map<String, String> props = PgSourceConnectorValidateTest.config(server);
        props.put("name", "stop-test");
        props.put(PgSourceConfig.TOPIC_PREFIX, "shop");
        props.put(PgSourceConfig.SLOT_NAME, "task_stop");
        props.put(PgSourceConfig.PUBLICATION_NAME, "task_stop_pub");
        props.put(PgSourceConfig.TABLE_INCLUDE_LIST, "public\\.big");
        props.put(DecodingSettings.DECODER_LANES, "2");
        props.put(DecodingSettings.DECODER_QUEUE_CAPACITY, Integer.toString(QUEUE_CAPACITY));
        task = new PgSourceTask();
        task.initialize(new FakeTaskContext(props, null, new PluginMetricsImpl(metrics, Map.of())));
        task.start(props);
        List<SourceRecord> first = awaitRecords();
        assertTrue(MarkerCodec.fromStruct(first.get(0).value()) instanceof Marker.Start, "the session started");

        sql("INSERT INTO public.big SELECT g, repeat('x', 100) FROM generate_series(1, " + ROWS + ") g");
        // Nobody polls any more, as while Connect stops the task: every queue fills up and the reader waits.
        await(() -> laneQueueDepths() == 2 * QUEUE_CAPACITY, "the decoder lanes' queues to fill up");

        long start = System.nanoTime();
        task.stop();
        Duration took = Duration.ofNanos(System.nanoTime() - start);
        task = null;

        assertTrue(took.compareTo(STOP_BUDGET) < 0, "stop() took " + took.toMillis() + " ms");
        // The walsender noticed its client is gone, so the next task of the connector can take the slot.
        await(() -> !slotActive(), "the slot to be released");
        assertEquals(0, ROWS - rowCount(), "the transaction committed");
    }

    private List<SourceRecord> awaitRecords() throws InterruptedException {
        long deadline = System.nanoTime() + Duration.ofSeconds(30).toNanos();
        List<SourceRecord> records = task.poll();
        while (records == null) {
            assertTrue(System.nanoTime() < deadline, "the task emitted nothing");
            records = task.poll();
        }
        records.forEach(r -> KafkaAcks.stored(task, r));
        return records;
    }

    private long laneQueueDepths() {
        return metrics.metrics().entrySet().stream()
                .filter(e -> e.getKey().name().equals("lane-queue-depth"))
                .mapToLong(e -> ((Number) e.getValue().metricValue()).longValue())
                .sum();
    }

    private static void await(BooleanSupplier condition, String what) {
        long deadline = System.nanoTime() + Duration.ofSeconds(60).toNanos();
        while (!condition.getAsBoolean()) {
            assertTrue(System.nanoTime() < deadline, "timed out waiting for " + what);
            LockSupport.parkNanos(Duration.ofMillis(10).toNanos());
        }
    }

    private static boolean slotActive() {
        return queryLong("SELECT count(*) FROM pg_replication_slots WHERE slot_name = 'task_stop' AND active") > 0;
    }

    private static long rowCount() {
        return queryLong("SELECT count(*) FROM public.big");
    }

    private static long queryLong(String query) {
        try (Connection c = server.getPostgresDatabase().getConnection();
                Statement st = c.createStatement();
                ResultSet rs = st.executeQuery(query)) {
            rs.next();
            return rs.getLong(1);
        } catch (SQLException e) {
            throw new IllegalStateException(e);
        }
    }

    private static void sql(String... statements) throws SQLException {
        try (Connection c = server.getPostgresDatabase().getConnection();
                Statement st = c.createStatement()) {
            for (String statement : statements) {
                st.execute(statement);
            }
        }
    }
}
