package dev.pglane.source.reader;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.pglane.source.capture.CapturedTables;
import dev.pglane.source.capture.TableCapture;
import dev.pglane.source.capture.TablesMessage;
import dev.pglane.source.decode.StreamItem;
import dev.pglane.source.pgoutput.BeginMessage;
import dev.pglane.source.pgoutput.CommitMessage;
import dev.pglane.source.pgoutput.LogicalDecodingMessage;
import dev.pglane.source.schema.RelationCache;
import dev.pglane.source.seal.MessageSeal;
import dev.pglane.source.signal.SignalMessage;
import dev.pglane.source.snapshot.SnapshotProgress;
import dev.pglane.source.snapshot.SnapshotStream;
import dev.pglane.wire.Lsn;
import dev.pglane.wire.marker.Marker;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;

/**
 * pglane's own logical decoding messages as any login can emit them (pg_logical_emit_message is executable by PUBLIC
 * unless revoked): the reader obeys only those that carry the connector's seal.
 */
class SealedMessagesTest {
    private static final long GEN = 3;
    private static final String SEQUENCES = "pglane.sequences.pub";
    private static final String VALUES = "{\"connector\":\"shop\",\"sequences\":[{\"schema\":\"public\","
            + "\"table\":\"orders\",\"column\":\"id\",\"last_value\":9223372036854775807}]}";

    private final MessageSeal seal = MessageSeal.configured("shop", "a key of sixteen characters");
    private final List<StreamItem> items = new ArrayList<>();
    private final List<SnapshotProgress> started = new ArrayList<>();

    private TransactionTracker tracker(MessageFilter filter, boolean signalTopic) {
        SnapshotStream snapshot = new SnapshotStream(
                seal,
                signalTopic,
                GEN,
                null,
                null,
                progress -> {
                    started.add(progress);
                    return null;
                },
                null);
        return new TransactionTracker(
                new RelationCache(null),
                "shop.messages",
                GEN,
                Lsn.valueOf(0x10),
                false,
                filter,
                OriginFilter.ANY,
                snapshot,
                seal,
                items::add);
    }

    /** One transaction holding one transactional message of {@code prefix}. */
    private static void transaction(TransactionTracker tracker, long xid, String prefix, String content)
            throws Exception {
        Lsn at = Lsn.valueOf(0x1000 * xid);
        tracker.accept(new BeginMessage(at.plus(0x20), 1_000_000L, xid), at, 0);
        tracker.accept(
                new LogicalDecodingMessage(0, true, at.plus(8), prefix, content.getBytes(StandardCharsets.UTF_8)),
                at.plus(8),
                0);
        tracker.accept(new CommitMessage(0, at.plus(0x20), at.plus(0x28), 1_000_000L), at.plus(0x20), 0);
    }

    @Test
    void sequenceValuesBecomeARecordOnlyWithTheConnectorsSeal() throws Exception {
        TransactionTracker tracker = tracker(new MessageFilter(false, Set.of(), SEQUENCES), false);

        transaction(tracker, 1, SEQUENCES, VALUES);
        assertEquals(List.of(), items, "one SELECT by any login must not move the target's sequences");
        assertEquals(1, seal.refused().total());

        MessageSeal other = MessageSeal.configured("other", "another key of sixteen characters");
        transaction(tracker, 2, SEQUENCES, other.seal(SEQUENCES, VALUES.replace("\"shop\"", "\"other\"")));
        assertEquals(List.of(), items, "another connector's values on the same publication");
        assertEquals(1, seal.refused().total(), "and no refusal: they are that connector's");

        transaction(tracker, 3, SEQUENCES, seal.seal(SEQUENCES, VALUES));
        StreamItem.Message record = assertInstanceOf(StreamItem.Message.class, items.get(0));
        assertArrayEquals(
                VALUES.getBytes(StandardCharsets.UTF_8), record.message().content(), "without the seal");
        assertInstanceOf(Marker.End.class, ((StreamItem.MarkerItem) items.get(1)).marker());
    }

    @Test
    void prefixesOfPglaneNeverBecomeRecordsAsMessagesOfUsers() throws Exception {
        TransactionTracker tracker = tracker(new MessageFilter(true, Set.of()), false);
        transaction(tracker, 1, "pglane.sequences.elsewhere", VALUES);
        transaction(tracker, 2, "pglane.durability", "");
        assertEquals(List.of(), items, "a sink acts on records of these prefixes");

        transaction(tracker, 3, "app.audit", "hello");
        assertEquals(
                "app.audit",
                assertInstanceOf(StreamItem.Message.class, items.get(0))
                        .message()
                        .prefix());
    }

    @Test
    void aForgedHighWatermarkMakesNoTransaction() throws Exception {
        TransactionTracker tracker = tracker(MessageFilter.NONE, false);
        transaction(tracker, 1, "pglane.snapshot", "shop/" + GEN + "/5/H");
        assertEquals(List.of(), items, "a forged watermark of this connector is refused, not sent as an orphan");
        assertEquals(1, seal.refused().total());
        transaction(tracker, 2, "pglane.snapshot", "other/" + GEN + "/5/H");
        assertEquals(1, seal.refused().total(), "another connector's watermark is no concern of this one");
    }

    @Test
    void aSignalMessageIsObeyedOnlyWithASignalTopicAndTheConnectorsSeal() throws Exception {
        String execute = new SignalMessage(
                        "shop", "s1", "execute-snapshot", "{\"data-collections\": [\"public.orders\"]}")
                .content();

        TransactionTracker withTopic = tracker(MessageFilter.NONE, true);
        transaction(withTopic, 1, SignalMessage.PREFIX, execute);
        assertEquals(List.of(), started, "any login could start snapshots for ever");
        assertEquals(1, seal.refused().total());
        transaction(withTopic, 2, SignalMessage.PREFIX, seal.seal(SignalMessage.PREFIX, execute));
        assertEquals(1, started.size(), "the connector's own signal, from its signal topic");

        TransactionTracker withoutTopic = tracker(MessageFilter.NONE, false);
        transaction(withoutTopic, 3, SignalMessage.PREFIX, seal.seal(SignalMessage.PREFIX, execute));
        assertEquals(1, started.size(), "no signal topic: no signal message is obeyed");
        assertEquals(2, seal.refused().total());
    }

    @Test
    void aTablesMessageChangesTheCapturedSetOnlyWithTheConnectorsSeal() {
        TableCapture capture = new TableCapture(seal, CapturedTables.of(List.of(16384L)));
        String tables = new TablesMessage("shop", Map.of(16384L, "public.orders", 16390L, "public.secrets")).content();
        assertNull(capture.received(message(TablesMessage.PREFIX, tables)));
        assertEquals(1, seal.refused().total());

        TableCapture.Change change =
                capture.received(message(TablesMessage.PREFIX, seal.seal(TablesMessage.PREFIX, tables)));
        assertNotNull(change);
        assertEquals(List.of("public.secrets"), change.joined());
    }

    @Test
    void aWatermarkSealedForTheSignalPrefixDoesNotOpen() {
        String sealedAsSignal = seal.seal(SignalMessage.PREFIX, "shop/" + GEN + "/5/H");
        SnapshotStream snapshot = new SnapshotStream(seal, GEN, null);
        assertEquals(
                SnapshotStream.Kind.NONE,
                snapshot.received(message("pglane.snapshot", sealedAsSignal)).kind());
        assertTrue(seal.refused().total() >= 1);
    }

    private static LogicalDecodingMessage message(String prefix, String content) {
        return new LogicalDecodingMessage(
                700, true, Lsn.valueOf(0x500), prefix, content.getBytes(StandardCharsets.UTF_8));
    }
}
