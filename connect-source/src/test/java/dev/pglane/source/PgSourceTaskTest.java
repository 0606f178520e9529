package dev.pglane.source;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.pglane.connect.config.DatabaseSettings;
import dev.pglane.wire.Lsn;
import dev.pglane.wire.SourceOffset;
import dev.pglane.wire.TransactionKey;
import dev.pglane.wire.envelope.ChangeEnvelope;
import dev.pglane.wire.envelope.ChangeEvent;
import dev.pglane.wire.envelope.Op;
import dev.pglane.wire.marker.DataCollectionCount;
import dev.pglane.wire.marker.Marker;
import dev.pglane.wire.marker.MarkerCodec;
import io.zonky.test.db.postgres.embedded.EmbeddedPostgres;
import java.io.IOException;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.function.Predicate;
import org.apache.kafka.common.metrics.Metrics;
import org.apache.kafka.common.metrics.PluginMetrics;
import org.apache.kafka.common.metrics.internals.PluginMetricsImpl;
import org.apache.kafka.connect.errors.RetriableException;
import org.apache.kafka.connect.source.SourceRecord;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** The task against a real PostgreSQL 17: records, markers, slot confirmation and restart. */
class PgSourceTaskTest {
    private static final long DEADLINE_NANOS = TimeUnit.SECONDS.toNanos(30);
    private static EmbeddedPostgres server;

    private final List<PgSourceTask> tasks = new ArrayList<>();
    private final Metrics metrics = new Metrics();

    @BeforeAll
    static void startServer() throws IOException, SQLException {
        server = EmbeddedPostgres.builder()
                .setServerConfig("wal_level", "logical")
                .start();
        sql(
                "CREATE TABLE public.orders (id int PRIMARY KEY, note text)",
                "CREATE TABLE public.lines (id int PRIMARY KEY, qty int)",
                "CREATE TABLE public.elsewhere (id int PRIMARY KEY)",
                // Its walsenders stream every change at once: the cheap way to get streamed transactions.
                "CREATE ROLE streamer LOGIN SUPERUSER",
                "ALTER ROLE streamer SET debug_logical_replication_streaming = immediate");
    }

    @AfterAll
    static void stopServer() throws IOException {
        server.close();
    }

    /** Before the test's slot exists, so these deletes are not part of its stream. */
    @BeforeEach
    void emptyTables() throws SQLException {
        sql("DELETE FROM public.orders", "DELETE FROM public.lines", "DELETE FROM public.elsewhere");
    }

    @AfterEach
    void stopTasks() {
        tasks.forEach(PgSourceTask::stop);
        metrics.close();
    }

    private static Map<String, String> config(String slot, Map<String, String> extra) {
        Map<String, String> props = PgSourceConnectorValidateTest.config(server);
        props.put("name", "task-test");
        props.put(PgSourceConfig.TOPIC_PREFIX, "shop");
        props.put(PgSourceConfig.SLOT_NAME, slot);
        props.put(PgSourceConfig.PUBLICATION_NAME, slot + "_pub");
        props.put(PgSourceConfig.TABLE_INCLUDE_LIST, "public\\.orders,public\\.lines");
        props.put(PgSourceConfig.DECODER_LANES, "2");
        props.put(PgSourceConfig.DECODER_BATCH_SIZE, "2");
        props.put(PgSourceConfig.STATUS_INTERVAL_MS, "1000");
        props.put(PgSourceConfig.RECONNECT_BACKOFF_INITIAL_MS, "50");
        props.putAll(extra);
        return props;
    }

    private PgSourceTask start(Map<String, String> props, Map<String, Object> storedOffset) {
        PgSourceTask task = new PgSourceTask();
        // Connect gives each task its own plugin metrics, tagged with the connector and task.
        PluginMetrics taskMetrics = new PluginMetricsImpl(metrics, Map.of("task", Integer.toString(tasks.size())));
        task.initialize(new FakeTaskContext(props, storedOffset, taskMetrics));
        tasks.add(task);
        task.start(props);
        return task;
    }

    /** Polls until {@code done} holds for everything polled, acknowledging each record as Kafka would. */
    private static List<SourceRecord> pollUntil(PgSourceTask task, Predicate<List<SourceRecord>> done)
            throws InterruptedException {
        List<SourceRecord> all = new ArrayList<>();
        long deadline = System.nanoTime() + DEADLINE_NANOS;
        while (!done.test(all)) {
            assertTrue(System.nanoTime() < deadline, "timed out; polled so far: " + all);
            try {
                List<SourceRecord> records = task.poll();
                if (records != null) {
                    all.addAll(records);
                    records.forEach(r -> task.commitRecord(r, null));
                }
            } catch (RetriableException e) {
                // The previous session's walsender still holds the slot: the task retries after a backoff.
            }
        }
        return all;
    }

    private static Predicate<List<SourceRecord>> ends(int count) {
        return records ->
                records.stream().filter(r -> marker(r) instanceof Marker.End).count() >= count;
    }

    private static Marker marker(SourceRecord record) {
        return record.topic().equals("shop.transactions") ? MarkerCodec.fromStruct(record.value()) : null;
    }

    private static ChangeEvent event(SourceRecord record) {
        return ChangeEnvelope.fromStruct(record.value());
    }

    private static void sql(String... statements) throws SQLException {
        try (Connection c = server.getPostgresDatabase().getConnection();
                Statement st = c.createStatement()) {
            for (String statement : statements) {
                st.execute(statement);
            }
        }
    }

    private static long xid(Statement st) throws SQLException {
        try (ResultSet rs = st.executeQuery("SELECT pg_current_xact_id()::text::bigint % 4294967296")) {
            rs.next();
            return rs.getLong(1);
        }
    }

    private static Lsn confirmedFlush(String slot) throws SQLException {
        try (Connection c = server.getPostgresDatabase().getConnection();
                Statement st = c.createStatement();
                ResultSet rs = st.executeQuery("SELECT confirmed_flush_lsn::text FROM pg_replication_slots"
                        + " WHERE slot_name = '" + slot + "'")) {
            rs.next();
            return Lsn.parse(rs.getString(1));
        }
    }

    private static void awaitConfirmedFlush(String slot, Lsn atLeast) throws SQLException {
        long deadline = System.nanoTime() + DEADLINE_NANOS;
        Lsn confirmed = confirmedFlush(slot);
        while (confirmed.compareTo(atLeast) < 0) {
            assertTrue(System.nanoTime() < deadline, "confirmed_flush_lsn stayed at " + confirmed + ", not " + atLeast);
            Thread.onSpinWait();
            confirmed = confirmedFlush(slot);
        }
    }

    /** Two interleaved transactions: B commits first, so its records come first. Returns {xidA, xidB}. */
    private static long[] interleavedTransactions() throws SQLException {
        try (Connection a = server.getPostgresDatabase().getConnection();
                Connection b = server.getPostgresDatabase().getConnection();
                Statement sa = a.createStatement();
                Statement sb = b.createStatement()) {
            a.setAutoCommit(false);
            b.setAutoCommit(false);
            sa.execute("INSERT INTO public.orders VALUES (1, 'first')");
            sb.execute("INSERT INTO public.lines VALUES (10, 5)");
            sa.execute("UPDATE public.orders SET note = 'changed' WHERE id = 1");
            sb.execute("INSERT INTO public.orders VALUES (2, 'second')");
            long[] xids = {xid(sa), xid(sb)};
            b.commit();
            sa.execute("DELETE FROM public.orders WHERE id = 1");
            a.commit();
            return xids;
        }
    }

    @Test
    void interleavedTransactionsArriveInCommitOrderAndAcknowledgedEndsReachTheSlot() throws Exception {
        PgSourceTask task = start(config("task_order", Map.of()), null);
        long[] xids = interleavedTransactions();
        List<SourceRecord> records = pollUntil(task, ends(2));

        Marker.Start start = assertInstanceOf(Marker.Start.class, marker(records.get(0)));
        assertTrue(start.generation() > 0);
        List<String> expected = List.of(
                "START",
                "c public.lines",
                "c public.orders",
                "END",
                "c public.orders",
                "u public.orders",
                "d public.orders",
                "END");
        List<String> seen = records.stream()
                .map(r -> marker(r) != null
                        ? marker(r).status().name()
                        : event(r).op().code() + " " + event(r).source().schema() + "."
                                + event(r).source().table())
                .toList();
        assertEquals(expected, seen);

        long xidA = xids[0];
        long xidB = xids[1];
        ChangeEvent lineInsert = event(records.get(1));
        assertEquals(xidB, TransactionKey.xid(records.get(1).key()));
        assertEquals("shop.public.lines", records.get(1).topic());
        assertEquals(10, lineInsert.after().get("id"));
        assertEquals(5, lineInsert.after().get("qty"));
        assertEquals(1, lineInsert.transaction().totalOrder());
        assertEquals(start.generation(), lineInsert.transaction().generation());
        assertNull(lineInsert.transaction().subxid());

        ChangeEvent update = event(records.get(5));
        assertEquals(xidA, update.transaction().xid());
        assertEquals(2, update.transaction().totalOrder());
        assertEquals(2, update.transaction().dataCollectionOrder());
        assertEquals("changed", update.after().get("note"));
        ChangeEvent delete = event(records.get(6));
        assertEquals(Op.DELETE, delete.op());
        assertEquals(1, delete.before().get("id"));

        Marker.End endB = assertInstanceOf(Marker.End.class, marker(records.get(3)));
        assertEquals(xidB, endB.xid());
        assertEquals(
                List.of(
                        new DataCollectionCount("public.lines", 1, "shop.public.lines"),
                        new DataCollectionCount("public.orders", 1, "shop.public.orders")),
                endB.dataCollections());
        Marker.End endA = assertInstanceOf(Marker.End.class, marker(records.get(7)));
        assertEquals(xidA, endA.xid());
        assertEquals(3, endA.eventCount());
        assertEquals(start.generation(), endA.generation());
        assertEquals(
                SourceOffset.between(endA.endLsn(), start.generation()).toMap(),
                records.get(7).sourceOffset());

        awaitConfirmedFlush("task_order", endA.endLsn());
        assertTrue(metricValue("flushed-lsn") >= endA.endLsn().asLong(), "the flushed-lsn metric follows the slot");
    }

    private double metricValue(String name) {
        return metrics.metrics().entrySet().stream()
                .filter(e -> e.getKey().name().equals(name))
                .mapToDouble(e -> ((Number) e.getValue().metricValue()).doubleValue())
                .findFirst()
                .orElseThrow();
    }

    @Test
    void restartWithTheStoredOffsetResumesAfterItUnderANewGeneration() throws Exception {
        Map<String, String> props = config("task_restart", Map.of());
        PgSourceTask first = start(props, null);
        interleavedTransactions();
        List<SourceRecord> before = pollUntil(first, ends(2));
        long firstGeneration = marker(before.get(0)).generation();
        Map<String, ?> stored = before.get(before.size() - 1).sourceOffset();
        first.stop();
        sql("DELETE FROM public.orders", "DELETE FROM public.lines");

        PgSourceTask second = start(props, new HashMap<>(stored));
        List<SourceRecord> after = pollUntil(second, ends(1));

        Marker.Start start = assertInstanceOf(Marker.Start.class, marker(after.get(0)));
        assertTrue(start.generation() > firstGeneration, start.generation() + " after " + firstGeneration);
        assertEquals(SourceOffset.fromMap(stored).commitEndLsn(), start.resumeLsn());
        List<Long> earlierXids = before.stream()
                .filter(r -> marker(r) instanceof Marker.End)
                .map(r -> ((Marker.End) marker(r)).xid())
                .toList();
        for (SourceRecord record : after.subList(1, after.size())) {
            long xid = TransactionKey.xid(record.key());
            assertTrue(!earlierXids.contains(xid), "transaction " + xid + " was emitted again");
            assertEquals(
                    start.generation(),
                    marker(record) != null
                            ? marker(record).generation()
                            : event(record).transaction().generation());
        }
        assertEquals(Op.DELETE, event(after.get(1)).op(), "the clean-up is the first new transaction");
    }

    @Test
    void anIdleCapturedSetDoesNotPinWalAndHeartbeatsConfirmTheServerPosition() throws Exception {
        PgSourceTask task = start(config("task_idle", Map.of(PgSourceConfig.HEARTBEAT_INTERVAL_MS, "200")), null);
        pollUntil(task, records -> !records.isEmpty());
        sql("INSERT INTO public.elsewhere SELECT g FROM generate_series(1, 100) g");
        Lsn written;
        try (Connection c = server.getPostgresDatabase().getConnection();
                Statement st = c.createStatement();
                ResultSet rs = st.executeQuery("SELECT pg_current_wal_lsn()::text")) {
            rs.next();
            written = Lsn.parse(rs.getString(1));
        }
        List<SourceRecord> heartbeats = pollUntil(
                task,
                records -> records.stream()
                        .map(PgSourceTaskTest::marker)
                        .anyMatch(
                                m -> m instanceof Marker.Heartbeat h && h.lsn().compareTo(written) >= 0));
        assertTrue(heartbeats.stream().allMatch(r -> marker(r) instanceof Marker.Heartbeat), "only heartbeats");
        awaitConfirmedFlush("task_idle", written);
    }

    @Test
    void aLostConnectionFailsOnePollAndANewSessionResumesAtTheLastEnd() throws Exception {
        PgSourceTask task = start(config("task_reconnect", Map.of()), null);
        sql("INSERT INTO public.orders VALUES (1, 'before')");
        List<SourceRecord> before = pollUntil(task, ends(1));
        Marker.End end = (Marker.End) marker(before.get(before.size() - 1));
        sql("SELECT pg_terminate_backend(active_pid) FROM pg_replication_slots WHERE slot_name = 'task_reconnect'");

        RetriableException lost = null;
        long deadline = System.nanoTime() + DEADLINE_NANOS;
        while (lost == null) {
            assertTrue(System.nanoTime() < deadline, "the lost connection never surfaced");
            try {
                assertNull(task.poll(), "nothing new was written");
            } catch (RetriableException e) {
                lost = e;
            }
        }
        assertTrue(lost.getMessage().contains("Lost the replication connection"), lost.getMessage());
        sql("INSERT INTO public.orders VALUES (2, 'after')");
        List<SourceRecord> after = pollUntil(task, ends(1));

        Marker.Start start = assertInstanceOf(Marker.Start.class, marker(after.get(0)));
        assertTrue(start.generation() > end.generation());
        assertEquals(end.endLsn(), start.resumeLsn());
        assertEquals(
                List.of(2),
                after.stream()
                        .filter(r -> marker(r) == null)
                        .map(r -> event(r).after().get("id"))
                        .toList());
    }

    @Test
    void streamedTransactionsCarrySubxidsAndAbortMarkers() throws Exception {
        Map<String, String> props =
                config("task_stream", Map.of(DatabaseSettings.USER, "streamer", PgSourceConfig.STREAMING_MODE, "on"));
        PgSourceTask task = start(props, null);
        long xid;
        long rolledBack;
        try (Connection c = server.getPostgresDatabase().getConnection();
                Statement st = c.createStatement()) {
            c.setAutoCommit(false);
            st.execute("INSERT INTO public.orders VALUES (1, 'kept')");
            st.execute("SAVEPOINT s");
            st.execute("INSERT INTO public.orders VALUES (2, 'rolled back')");
            st.execute("ROLLBACK TO SAVEPOINT s");
            st.execute("INSERT INTO public.orders VALUES (3, 'kept too')");
            xid = xid(st);
            c.commit();
            st.execute("INSERT INTO public.orders VALUES (4, 'aborted')");
            rolledBack = xid(st);
            c.rollback();
        }
        List<SourceRecord> records = pollUntil(
                task,
                all -> all.stream()
                        .map(PgSourceTaskTest::marker)
                        .anyMatch(m -> m instanceof Marker.Abort a && a.isTopLevel()));

        List<SourceRecord> ofXid =
                records.stream().filter(r -> TransactionKey.xid(r.key()) == xid).toList();
        List<ChangeEvent> changes = ofXid.stream()
                .filter(r -> marker(r) == null)
                .map(PgSourceTaskTest::event)
                .toList();
        assertEquals(
                List.of(1, 2, 3), changes.stream().map(e -> e.after().get("id")).toList());
        assertEquals(xid, changes.get(0).transaction().subxid(), "the top level's own change");
        long savepoint = changes.get(1).transaction().subxid();
        assertTrue(savepoint != xid);
        Marker.Abort abort = ofXid.stream()
                .map(PgSourceTaskTest::marker)
                .filter(m -> m instanceof Marker.Abort)
                .map(m -> (Marker.Abort) m)
                .findFirst()
                .orElseThrow();
        assertEquals(savepoint, abort.subxid());
        Marker.End end = (Marker.End) marker(ofXid.get(ofXid.size() - 1));
        assertEquals(2, end.eventCount(), "the rolled-back insert is not counted");

        Marker.Abort whole = (Marker.Abort) marker(records.get(records.size() - 1));
        assertEquals(rolledBack, whole.xid());
    }
}
