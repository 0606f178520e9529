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
import dev.pglane.source.seal.MessageSeal;
import dev.pglane.source.signal.SignalMessage;
import dev.pglane.wire.SourceOffset;
import dev.pglane.wire.envelope.Op;
import dev.pglane.wire.marker.SnapshotChunk;
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
    private static final String KEY = "the key of this test's connector";

    @RegisterExtension
    static final SourceTaskServer server = new SourceTaskServer(
            "CREATE TABLE public.orders (id int PRIMARY KEY, note text)",
            "CREATE TABLE public.lines (id int PRIMARY KEY, qty int)",
            "CREATE TABLE public.pglane_signal (id text PRIMARY KEY, type text NOT NULL, data text)",
            "CREATE TABLE public.resnap (id int PRIMARY KEY, v text)",
            "INSERT INTO public.resnap SELECT g, 'v' || g FROM generate_series(1, 600) g",
            "CREATE TABLE public.victim (id int)",
            "CREATE FUNCTION public.pglane_evil() RETURNS int LANGUAGE sql"
                    + " AS 'INSERT INTO public.victim VALUES (1) RETURNING 1'");

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

    @Test
    void aKeyRangeSendsItsRowsInChunksThatCoverExactlyTheRange() throws Exception {
        PgSourceTask task = server.start(signalled("snap_range"), null);
        signal(
                "r1",
                "execute-snapshot",
                "{\"data-collections\": [\"public.resnap\"],"
                        + " \"key-ranges\": [{\"data-collection\": \"public.resnap\", \"from\": [\"100\"], \"to\": [200]}]}");
        List<SourceRecord> records = SourceTaskServer.pollUntil(task, snapshotDone());
        List<Integer> ids = readIds(records);
        assertEquals(100, ids.size(), "ids 100 to 199, each once");
        assertEquals(
                100, ids.stream().distinct().filter(id -> id >= 100 && id < 200).count());
        List<SnapshotChunk.KeyRange> ranges = ends(records).stream()
                .filter(e -> e.snapshot() != null)
                .map(e -> e.snapshot().range())
                .toList();
        assertEquals(10, ranges.size(), "10 rows per chunk");
        assertEquals(List.of("100"), ranges.get(0).lower(), "the first chunk starts at from");
        assertEquals(List.of("200"), ranges.get(ranges.size() - 1).upper(), "the last ends at to, not the table's end");
    }

    @Test
    void aConditionSendsTheRowsItAdmitsAndNoRangeToDeleteIn() throws Exception {
        PgSourceTask task = server.start(signalled("snap_where"), null);
        signal(
                "w1",
                "execute-snapshot",
                "{\"data-collections\": [\"public.resnap\"], \"additional-conditions\":"
                        + " [{\"data-collection\": \"public.resnap\","
                        + " \"filter\": \"id IN (7, 14, 21) OR (id >= 590 AND v LIKE 'v5%')\"}]}");
        List<SourceRecord> records = SourceTaskServer.pollUntil(task, snapshotDone());
        List<Integer> ids = readIds(records);
        assertEquals(
                List.of(7, 14, 21, 590, 591, 592, 593, 594, 595, 596, 597, 598, 599),
                ids.stream().distinct().sorted().toList(),
                "7, 14, 21, and 590 to 599 (600's v is 'v600')");
        assertTrue(
                ends(records).stream()
                        .filter(e -> e.snapshot() != null)
                        .allMatch(e -> e.snapshot().range() == null),
                "the target must not delete the rows of a range that the condition did not send");
    }

    /**
     * A condition outside the grammar (a function call), one naming a column the table lacks, and a literal and a key
     * value the server cannot read as their columns' type: no SQL of the first two runs, and no WARN quotes the
     * server, whose messages may carry values.
     */
    @Test
    void aConditionOutsideTheGrammarRunsNothingAndARefusalQuotesNoServerText() throws Exception {
        PgSourceTask task = server.start(signalled("snap_refused"), null);
        try (LogCapture log = LogCapture.start()) {
            signal(
                    "e1",
                    "execute-snapshot",
                    "{\"data-collections\": [\"public.resnap\"], \"additional-conditions\":"
                            + " [{\"data-collection\": \"public.resnap\", \"filter\": \"public.pglane_evil() > 0\"}]}");
            signal(
                    "e2",
                    "execute-snapshot",
                    "{\"data-collections\": [\"public.resnap\"], \"additional-conditions\":"
                            + " [{\"data-collection\": \"public.resnap\", \"filter\": \"secret = 'x'\"}]}");
            awaitWarnings(task, log, "is left out", 1);
            signal(
                    "e3",
                    "execute-snapshot",
                    "{\"data-collections\": [\"public.resnap\"], \"additional-conditions\":"
                            + " [{\"data-collection\": \"public.resnap\", \"filter\": \"id = 'quoted by the server'\"}]}");
            awaitWarnings(task, log, "refused the signal's filter", 1); // else e4 would find e3's table being sent
            signal(
                    "e4",
                    "execute-snapshot",
                    "{\"data-collections\": [\"public.resnap\"],"
                            + " \"key-ranges\": [{\"data-collection\": \"public.resnap\", \"from\": [\"not a number\"]}]}");
            server.sql("UPDATE public.resnap SET v = 'after the refusals' WHERE id = 3");
            List<SourceRecord> records = SourceTaskServer.pollUntil(
                    task, rs -> rs.stream().anyMatch(r -> marker(r) == null && event(r).op() == Op.UPDATE));
            assertTrue(readIds(records).isEmpty());
            awaitWarnings(task, log, "refused the signal's filter (SQLSTATE 22P02", 2);
            assertTrue(
                    log.warnings().stream()
                            .anyMatch(l -> l.contains("Signal e1")
                                    && l.contains("is ignored: a filter's condition holds a character")),
                    log.warnings()::toString);
            assertTrue(
                    log.warnings().stream()
                            .anyMatch(
                                    l -> l.contains("[secret]") && l.contains("not columns the publication publishes")),
                    log.warnings()::toString);
            assertTrue(
                    log.warnings().stream()
                            .noneMatch(l -> l.contains("quoted by the server\"") || l.contains("not a number\"")),
                    log.warnings()::toString);
        }
        try (Connection c = server.connect();
                java.sql.Statement st = c.createStatement();
                java.sql.ResultSet rs = st.executeQuery("SELECT count(*) FROM public.victim")) {
            rs.next();
            assertEquals(0, rs.getLong(1), "the function never ran");
        }
    }

    private static void awaitWarnings(PgSourceTask task, LogCapture log, String text, int count)
            throws InterruptedException {
        SourceTaskServer.pollUntil(
                task,
                rs -> log.warnings().stream().filter(l -> l.contains(text)).count() >= count);
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
    void aSealedSignalMessageForThisConnectorActsAtItsPointOfTheStreamAndForgedOrOthersAreLeft() throws Exception {
        Map<String, String> props = signalled("snap_message");
        String prefix = props.get(PgSourceConfig.TOPIC_PREFIX);
        // signal messages are obeyed only from a signal topic's channel; the topic's broker is never reached here
        props.put(SnapshotSettings.SIGNAL_KAFKA_TOPIC, "snap_message_signals");
        props.put(SnapshotSettings.SIGNAL_KAFKA_BOOTSTRAP_SERVERS, "127.0.0.1:9");
        props.put(SnapshotSettings.WAL_MESSAGES_KEY, KEY);
        MessageSeal seal = MessageSeal.configured(prefix, KEY);
        PgSourceTask task = server.start(props, null);
        String data = "{\"data-collections\": [\"public.resnap\"]}";
        try (LogCapture log = LogCapture.start()) {
            emit(
                    true,
                    MessageSeal.configured("another_connector", "another key, sixteen characters")
                            .seal(
                                    SignalMessage.PREFIX,
                                    new SignalMessage("another_connector", "m0", "execute-snapshot", data).content()));
            emit(
                    false,
                    seal.seal(
                            SignalMessage.PREFIX, new SignalMessage(prefix, "m1", "execute-snapshot", data).content()));
            emit(true, new SignalMessage(prefix, "forged", "execute-snapshot", data).content());
            emit(
                    true,
                    seal.seal(
                            SignalMessage.PREFIX, new SignalMessage(prefix, "m2", "execute-snapshot", data).content()));
            List<SourceRecord> records = SourceTaskServer.pollUntil(task, snapshotDone());
            assertEquals(600, readIds(records).stream().distinct().count());
            assertTrue(ends(records).stream()
                    .filter(e -> e.snapshot() != null)
                    .allMatch(e -> e.snapshot().snapshotId().equals("signal-m2")));
            assertTrue(
                    log.warnings().stream()
                            .anyMatch(l -> l.contains("Signal m1") && l.contains("outside a transaction")),
                    log.warnings()::toString);
            assertTrue(
                    log.warnings().stream().anyMatch(l -> l.contains("does not carry this connector's seal")),
                    log.warnings()::toString);
        }
    }

    private static void emit(boolean transactional, String content) throws SQLException {
        try (Connection c = server.connect();
                PreparedStatement st = c.prepareStatement("SELECT pg_logical_emit_message(?, ?, ?)")) {
            st.setBoolean(1, transactional);
            st.setString(2, SignalMessage.PREFIX);
            st.setString(3, content);
            st.execute();
        }
    }

    /** A config that snapshots only when signalled, through public.pglane_signal. */
    private static Map<String, String> signalled(String slot) {
        Map<String, String> props =
                PgSourceTaskSnapshotTest.config(server, slot, "public\\.resnap,public\\.pglane_signal", 10, 1);
        props.put(SnapshotSettings.SNAPSHOT_MODE, "never");
        props.put(SnapshotSettings.SIGNAL_TABLE, "public.pglane_signal");
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
