package dev.pglane.source;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.pglane.connect.config.DatabaseSettings;
import dev.pglane.connect.config.EnumChoice;
import dev.pglane.connect.config.PayloadFormat;
import dev.pglane.wire.Lsn;
import dev.pglane.wire.SourceOffset;
import dev.pglane.wire.TransactionKey;
import dev.pglane.wire.envelope.ChangeEvent;
import dev.pglane.wire.envelope.Op;
import dev.pglane.wire.marker.DataCollectionCount;
import dev.pglane.wire.marker.Marker;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.apache.kafka.connect.errors.RetriableException;
import org.apache.kafka.connect.source.SourceRecord;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/** The task against a real PostgreSQL 17: records, markers, slot confirmation and restart. */
class PgSourceTaskTest {
    @RegisterExtension
    static final SourceTaskServer server = new SourceTaskServer(
            "CREATE TABLE public.orders (id int PRIMARY KEY, note text)",
            "CREATE TABLE public.lines (id int PRIMARY KEY, qty int)",
            "CREATE TABLE public.elsewhere (id int PRIMARY KEY)",
            // Its walsenders stream every change at once: the cheap way to get streamed transactions.
            "CREATE ROLE streamer LOGIN SUPERUSER",
            "ALTER ROLE streamer SET debug_logical_replication_streaming = immediate");

    /** Before the test's slot exists, so these deletes are not part of its stream. */
    @BeforeEach
    void emptyTables() throws SQLException {
        server.sql("DELETE FROM public.orders", "DELETE FROM public.lines", "DELETE FROM public.elsewhere");
    }

    private static long xid(Statement st) throws SQLException {
        try (ResultSet rs = st.executeQuery("SELECT pg_current_xact_id()::text::bigint % 4294967296")) {
            rs.next();
            return rs.getLong(1);
        }
    }

    /** Two interleaved transactions: B commits first, so its records come first. Returns {xidA, xidB}. */
    private static long[] interleavedTransactions() throws SQLException {
        try (Connection a = server.connect();
                Connection b = server.connect();
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

    /** Either payload format: with json the lanes write the same records as JSON, which read back the same. */
    @ParameterizedTest
    // Avro needs a schema registry: AvroPipelineIT runs it against a real one
    @EnumSource(
            value = PayloadFormat.class,
            names = {"CONNECT", "JSON"})
    void interleavedTransactionsArriveInCommitOrderAndAcknowledgedEndsReachTheSlot(PayloadFormat format)
            throws Exception {
        String slot = "task_order_" + EnumChoice.valueOf(format);
        PgSourceTask task =
                server.start(server.config(slot, Map.of("payload.format", EnumChoice.valueOf(format))), null);
        long[] xids = interleavedTransactions();
        List<SourceRecord> records = SourceTaskServer.pollUntil(task, SourceTaskServer.ends(2));

        Marker.Start start = assertInstanceOf(Marker.Start.class, SourceTaskServer.marker(records.get(0)));
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
                .map(r -> SourceTaskServer.marker(r) != null
                        ? SourceTaskServer.marker(r).status().name()
                        : SourceTaskServer.event(r).op().code() + " "
                                + SourceTaskServer.event(r).source().schema() + "."
                                + SourceTaskServer.event(r).source().table())
                .toList();
        assertEquals(expected, seen);

        long xidA = xids[0];
        long xidB = xids[1];
        ChangeEvent lineInsert = SourceTaskServer.event(records.get(1));
        assertEquals(xidB, SourceTaskServer.keyXid(records.get(1)));
        assertEquals(format == PayloadFormat.JSON, records.get(1).value() instanceof byte[]);
        assertEquals("shop.public.lines", records.get(1).topic());
        assertEquals(10, lineInsert.after().get("id"));
        assertEquals(5, lineInsert.after().get("qty"));
        assertEquals(1, lineInsert.transaction().totalOrder());
        assertEquals(start.generation(), lineInsert.transaction().generation());
        assertNull(lineInsert.transaction().subxid());

        ChangeEvent update = SourceTaskServer.event(records.get(5));
        assertEquals(xidA, update.transaction().xid());
        assertEquals(2, update.transaction().totalOrder());
        assertEquals(2, update.transaction().dataCollectionOrder());
        assertEquals("changed", update.after().get("note"));
        ChangeEvent delete = SourceTaskServer.event(records.get(6));
        assertEquals(Op.DELETE, delete.op());
        assertEquals(1, delete.before().get("id"));

        Marker.End endB = assertInstanceOf(Marker.End.class, SourceTaskServer.marker(records.get(3)));
        assertEquals(xidB, endB.xid());
        assertEquals(
                List.of(
                        new DataCollectionCount("public.lines", 1, "shop.public.lines"),
                        new DataCollectionCount("public.orders", 1, "shop.public.orders")),
                endB.dataCollections());
        Marker.End endA = assertInstanceOf(Marker.End.class, SourceTaskServer.marker(records.get(7)));
        assertEquals(xidA, endA.xid());
        assertEquals(3, endA.eventCount());
        assertEquals(start.generation(), endA.generation());
        Object key = records.get(0).sourceOffset().get(SourceOffset.MESSAGE_KEY);
        assertTrue(key instanceof String, "a connector without wal.messages.key keeps a key of its own: " + key);
        assertEquals(
                new SourceOffset(endA.endLsn(), start.generation(), null, null, null, null, null, (String) key).toMap(),
                records.get(7).sourceOffset());

        server.awaitConfirmedFlush(slot, endA.endLsn());
        assertTrue(
                server.metricValue("flushed-lsn") >= endA.endLsn().asLong(), "the flushed-lsn metric follows the slot");
    }

    @Test
    void restartWithTheStoredOffsetResumesAfterItUnderANewGeneration() throws Exception {
        Map<String, String> props = server.config("task_restart", Map.of());
        PgSourceTask first = server.start(props, null);
        interleavedTransactions();
        List<SourceRecord> before = SourceTaskServer.pollUntil(first, SourceTaskServer.ends(2));
        long firstGeneration = SourceTaskServer.marker(before.get(0)).generation();
        Map<String, ?> stored = before.get(before.size() - 1).sourceOffset();
        first.stop();
        server.sql("DELETE FROM public.orders", "DELETE FROM public.lines");

        PgSourceTask second = server.start(props, new HashMap<>(stored));
        List<SourceRecord> after = SourceTaskServer.pollUntil(second, SourceTaskServer.ends(1));

        Marker.Start start = assertInstanceOf(Marker.Start.class, SourceTaskServer.marker(after.get(0)));
        assertTrue(start.generation() > firstGeneration, start.generation() + " after " + firstGeneration);
        assertEquals(SourceOffset.fromMap(stored).commitEndLsn(), start.resumeLsn());
        assertEquals(
                stored.get(SourceOffset.MESSAGE_KEY),
                after.get(0).sourceOffset().get(SourceOffset.MESSAGE_KEY),
                "the next run seals with the key the offsets keep, so it opens the messages of the earlier one");
        List<Long> earlierXids = before.stream()
                .filter(r -> SourceTaskServer.marker(r) instanceof Marker.End)
                .map(r -> ((Marker.End) SourceTaskServer.marker(r)).xid())
                .toList();
        for (SourceRecord record : after.subList(1, after.size())) {
            long xid = TransactionKey.xid(record.key());
            assertTrue(!earlierXids.contains(xid), "transaction " + xid + " was emitted again");
            assertEquals(
                    start.generation(),
                    SourceTaskServer.marker(record) != null
                            ? SourceTaskServer.marker(record).generation()
                            : SourceTaskServer.event(record).transaction().generation());
        }
        assertEquals(Op.DELETE, SourceTaskServer.event(after.get(1)).op(), "the clean-up is the first new transaction");
    }

    @Test
    void anIdleCapturedSetDoesNotPinWalAndHeartbeatsConfirmTheServerPosition() throws Exception {
        PgSourceTask task =
                server.start(server.config("task_idle", Map.of(PgSourceConfig.HEARTBEAT_INTERVAL_MS, "200")), null);
        SourceTaskServer.pollUntil(task, records -> !records.isEmpty());
        server.sql("INSERT INTO public.elsewhere SELECT g FROM generate_series(1, 100) g");
        Lsn written;
        try (Connection c = server.connect();
                Statement st = c.createStatement();
                ResultSet rs = st.executeQuery("SELECT pg_current_wal_lsn()::text")) {
            rs.next();
            written = Lsn.parse(rs.getString(1));
        }
        List<SourceRecord> heartbeats = SourceTaskServer.pollUntil(
                task,
                records -> records.stream()
                        .map(SourceTaskServer::marker)
                        .anyMatch(
                                m -> m instanceof Marker.Heartbeat h && h.lsn().compareTo(written) >= 0));
        assertTrue(
                heartbeats.stream().allMatch(r -> SourceTaskServer.marker(r) instanceof Marker.Heartbeat),
                "only heartbeats");
        server.awaitConfirmedFlush("task_idle", written);
    }

    @Test
    void aLostConnectionFailsOnePollAndANewSessionResumesAtTheLastEnd() throws Exception {
        PgSourceTask task = server.start(server.config("task_reconnect", Map.of()), null);
        server.sql("INSERT INTO public.orders VALUES (1, 'before')");
        List<SourceRecord> before = SourceTaskServer.pollUntil(task, SourceTaskServer.ends(1));
        Marker.End end = (Marker.End) SourceTaskServer.marker(before.get(before.size() - 1));
        server.sql(
                "SELECT pg_terminate_backend(active_pid) FROM pg_replication_slots WHERE slot_name = 'task_reconnect'");

        RetriableException lost = null;
        long deadline = System.nanoTime() + SourceTaskServer.DEADLINE_NANOS;
        while (lost == null) {
            assertTrue(System.nanoTime() < deadline, "the lost connection never surfaced");
            try {
                assertNull(task.poll(), "nothing new was written");
            } catch (RetriableException e) {
                lost = e;
            }
        }
        assertTrue(lost.getMessage().contains("Lost the replication connection"), lost.getMessage());
        server.sql("INSERT INTO public.orders VALUES (2, 'after')");
        List<SourceRecord> after = SourceTaskServer.pollUntil(task, SourceTaskServer.ends(1));

        Marker.Start start = assertInstanceOf(Marker.Start.class, SourceTaskServer.marker(after.get(0)));
        assertTrue(start.generation() > end.generation());
        assertEquals(end.endLsn(), start.resumeLsn());
        assertEquals(
                List.of(2),
                after.stream()
                        .filter(r -> SourceTaskServer.marker(r) == null)
                        .map(r -> SourceTaskServer.event(r).after().get("id"))
                        .toList());
    }

    @Test
    void streamedTransactionsCarrySubxidsAndAbortMarkers() throws Exception {
        Map<String, String> props = server.config(
                "task_stream", Map.of(DatabaseSettings.USER, "streamer", PgSourceConfig.STREAMING_MODE, "on"));
        PgSourceTask task = server.start(props, null);
        long xid;
        long rolledBack;
        try (Connection c = server.connect();
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
        List<SourceRecord> records = SourceTaskServer.pollUntil(
                task,
                all -> all.stream()
                        .map(SourceTaskServer::marker)
                        .anyMatch(m -> m instanceof Marker.Abort a && a.isTopLevel()));

        List<SourceRecord> ofXid =
                records.stream().filter(r -> TransactionKey.xid(r.key()) == xid).toList();
        List<ChangeEvent> changes = ofXid.stream()
                .filter(r -> SourceTaskServer.marker(r) == null)
                .map(SourceTaskServer::event)
                .toList();
        assertEquals(
                List.of(1, 2, 3), changes.stream().map(e -> e.after().get("id")).toList());
        assertEquals(xid, changes.get(0).transaction().subxid(), "the top level's own change");
        long savepoint = changes.get(1).transaction().subxid();
        assertTrue(savepoint != xid);
        Marker.Abort abort = ofXid.stream()
                .map(SourceTaskServer::marker)
                .filter(m -> m instanceof Marker.Abort)
                .map(m -> (Marker.Abort) m)
                .findFirst()
                .orElseThrow();
        assertEquals(savepoint, abort.subxid());
        Marker.End end = (Marker.End) SourceTaskServer.marker(ofXid.get(ofXid.size() - 1));
        assertEquals(2, end.eventCount(), "the rolled-back insert is not counted");

        Marker.Abort whole = (Marker.Abort) SourceTaskServer.marker(records.get(records.size() - 1));
        assertEquals(rolledBack, whole.xid());
    }
}
