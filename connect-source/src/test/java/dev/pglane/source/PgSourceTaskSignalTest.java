package dev.pglane.source;

import static dev.pglane.source.PgSourceTaskSnapshotTest.chunkEnds;
import static dev.pglane.source.PgSourceTaskSnapshotTest.ends;
import static dev.pglane.source.PgSourceTaskSnapshotTest.readIds;
import static dev.pglane.source.PgSourceTaskSnapshotTest.snapshotDone;
import static dev.pglane.source.SourceTaskServer.event;
import static dev.pglane.source.SourceTaskServer.marker;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.pglane.connect.logging.LogCapture;
import dev.pglane.source.signal.SignalMessage;
import dev.pglane.wire.SourceOffset;
import dev.pglane.wire.envelope.Op;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.connect.source.SourceRecord;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/** Snapshots on demand: rows inserted into the signal table start, pause, resume and stop them while changes stream. */
class PgSourceTaskSignalTest {

    @RegisterExtension
    static final SourceTaskServer server = new SourceTaskServer(
            "CREATE TABLE public.orders (id int PRIMARY KEY, note text)",
            "CREATE TABLE public.lines (id int PRIMARY KEY, qty int)",
            "CREATE TABLE public.pglane_signal (id text PRIMARY KEY, type text NOT NULL, data text)",
            "CREATE TABLE public.resnap (id int PRIMARY KEY, v text)",
            "INSERT INTO public.resnap SELECT g, 'v' || g FROM generate_series(1, 600) g");

    @Test
    void aSignalSnapshotsATableAgainAndPauseAndResumeHoldAndReleaseIt() throws Exception {
        PgSourceTask task = server.start(signalled("snap_signal"), null);
        signal("s1", "execute-snapshot", "{\"data-collections\": [\"public.resnap\"]}");
        List<SourceRecord> records = new ArrayList<>(SourceTaskServer.pollUntil(task, chunkEnds(3)));
        signal("s2", "pause-snapshot", null);
        pollFor(task, records, 1500); // the reader passes the signal; chunks being read still go out
        long paused = ends(records).stream().filter(e -> e.snapshot() != null).count();
        pollFor(task, records, 2000);
        assertEquals(
                paused, ends(records).stream().filter(e -> e.snapshot() != null).count(), "no chunk while paused");
        assertTrue(paused < 60, "the pause came before the end: " + paused);
        signal("s3", "resume-snapshot", null);
        records.addAll(SourceTaskServer.pollUntil(task, snapshotDone()));

        List<Integer> ids = readIds(records);
        assertEquals(600, ids.stream().distinct().count(), "every row of the table, on demand");
        assertTrue(ends(records).stream()
                .filter(e -> e.snapshot() != null)
                .allMatch(e -> e.snapshot().snapshotId().equals("signal-s1")));
        assertTrue(
                records.stream().noneMatch(r -> r.topic().contains("pglane_signal")),
                "the signal table's own rows are never records");
    }

    @Test
    void aStopSignalDropsTheSnapshotAndTheOffsetsForgetIt() throws Exception {
        PgSourceTask task = server.start(signalled("snap_stop"), null);
        signal("t1", "execute-snapshot", "{\"data-collections\": [\"public.resnap\"]}");
        List<SourceRecord> records = new ArrayList<>(SourceTaskServer.pollUntil(task, chunkEnds(2)));
        assertNotNull(records.get(records.size() - 1).sourceOffset().get(SourceOffset.SNAPSHOT));
        signal("t2", "stop-snapshot", null);
        server.sql("UPDATE public.resnap SET v = 'after the stop' WHERE id = 1");
        records.addAll(SourceTaskServer.pollUntil(
                task, rs -> rs.stream().anyMatch(r -> marker(r) == null && event(r).op() == Op.UPDATE)));
        SourceRecord update = records.stream()
                .filter(r -> marker(r) == null && event(r).op() == Op.UPDATE)
                .findFirst()
                .orElseThrow();
        assertNull(update.sourceOffset().get(SourceOffset.SNAPSHOT), "no snapshot under way after the stop");
        assertFalse(event(update).pendingSnapshot());
        assertTrue(ends(records).stream()
                .noneMatch(e -> e.snapshot() != null && e.snapshot().snapshotDone()));
    }

    /** Polls (acknowledging) for {@code millis}, adding what comes to {@code records}. */
    private static void pollFor(PgSourceTask task, List<SourceRecord> records, long millis)
            throws InterruptedException {
        long until = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(millis);
        while (System.nanoTime() < until) {
            List<SourceRecord> more = task.poll();
            if (more != null) {
                more.forEach(r -> KafkaAcks.stored(task, r));
                records.addAll(more);
            }
        }
    }

    @Test
    void aSignalForNoCapturedTableStartsNoSnapshot() throws Exception {
        PgSourceTask task = server.start(signalled("snap_nothing"), null);
        signal("n1", "execute-snapshot", "{\"data-collections\": [\"public.not_captured\"]}");
        server.sql("UPDATE public.resnap SET v = 'after nothing' WHERE id = 2");
        List<SourceRecord> records = SourceTaskServer.pollUntil(
                task, rs -> rs.stream().anyMatch(r -> marker(r) == null && event(r).op() == Op.UPDATE));
        assertTrue(records.stream().noneMatch(r -> r.sourceOffset().containsKey(SourceOffset.SNAPSHOT)), "no progress");
        assertTrue(ends(records).stream().noneMatch(e -> e.snapshot() != null));
    }

    @Test
    void aSignalMessageForThisConnectorActsAtItsPointOfTheStreamAndOthersAreLeft() throws Exception {
        Map<String, String> props = signalled("snap_message");
        String prefix = props.get(PgSourceConfig.TOPIC_PREFIX);
        PgSourceTask task = server.start(props, null);
        String data = "{\"data-collections\": [\"public.resnap\"]}";
        try (LogCapture log = LogCapture.start()) {
            emit(true, new SignalMessage("another_connector", "m0", "execute-snapshot", data));
            emit(false, new SignalMessage(prefix, "m1", "execute-snapshot", data));
            emit(true, new SignalMessage(prefix, "m2", "execute-snapshot", data));
            List<SourceRecord> records = SourceTaskServer.pollUntil(task, snapshotDone());
            assertEquals(600, readIds(records).stream().distinct().count());
            assertTrue(ends(records).stream()
                    .filter(e -> e.snapshot() != null)
                    .allMatch(e -> e.snapshot().snapshotId().equals("signal-m2")));
            assertTrue(
                    log.warnings().stream()
                            .anyMatch(l -> l.contains("Signal m1") && l.contains("outside a transaction")),
                    log.warnings()::toString);
        }
    }

    private static void emit(boolean transactional, SignalMessage message) throws SQLException {
        try (Connection c = server.connect();
                PreparedStatement st = c.prepareStatement("SELECT pg_logical_emit_message(?, ?, ?)")) {
            st.setBoolean(1, transactional);
            st.setString(2, SignalMessage.PREFIX);
            st.setString(3, message.content());
            st.execute();
        }
    }

    /** A config that snapshots only when signalled, through public.pglane_signal. */
    private static Map<String, String> signalled(String slot) {
        Map<String, String> props =
                PgSourceTaskSnapshotTest.config(server, slot, "public\\.resnap,public\\.pglane_signal", 10, 1);
        props.put(PgSourceConfig.SNAPSHOT_MODE, "never");
        props.put(PgSourceConfig.SIGNAL_TABLE, "public.pglane_signal");
        return props;
    }

    private static void signal(String id, String type, String data) throws SQLException {
        try (Connection c = server.connect();
                PreparedStatement st = c.prepareStatement("INSERT INTO public.pglane_signal VALUES (?, ?, ?)")) {
            st.setString(1, id);
            st.setString(2, type);
            st.setString(3, data);
            st.execute();
        }
    }
}
