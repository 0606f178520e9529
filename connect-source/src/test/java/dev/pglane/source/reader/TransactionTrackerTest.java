package dev.pglane.source.reader;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.pglane.source.decode.ChangeStamp;
import dev.pglane.source.decode.StreamItem;
import dev.pglane.source.pgoutput.BeginMessage;
import dev.pglane.source.pgoutput.CommitMessage;
import dev.pglane.source.pgoutput.DeleteMessage;
import dev.pglane.source.pgoutput.InsertMessage;
import dev.pglane.source.pgoutput.LogicalDecodingMessage;
import dev.pglane.source.pgoutput.OriginMessage;
import dev.pglane.source.pgoutput.PgOutputMessage;
import dev.pglane.source.pgoutput.RelationColumn;
import dev.pglane.source.pgoutput.RelationMessage;
import dev.pglane.source.pgoutput.StreamAbortMessage;
import dev.pglane.source.pgoutput.StreamCommitMessage;
import dev.pglane.source.pgoutput.StreamStartMessage;
import dev.pglane.source.pgoutput.StreamStopMessage;
import dev.pglane.source.pgoutput.TruncateMessage;
import dev.pglane.source.pgoutput.UpdateMessage;
import dev.pglane.source.schema.RelationCache;
import dev.pglane.source.schema.RelationDescriptorFactory;
import dev.pglane.source.schema.RowKeyColumns;
import dev.pglane.source.seal.MessageSeal;
import dev.pglane.source.snapshot.SnapshotStream;
import dev.pglane.wire.Lsn;
import dev.pglane.wire.SourceOffset;
import dev.pglane.wire.TopicNames;
import dev.pglane.wire.envelope.EnvelopeSchemas;
import dev.pglane.wire.envelope.Op;
import dev.pglane.wire.marker.DataCollectionCount;
import dev.pglane.wire.marker.Marker;
import dev.pglane.wire.types.PgColumnType;
import dev.pglane.wire.types.ValueMappings;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import org.apache.kafka.connect.errors.ConnectException;
import org.junit.jupiter.api.Test;

/** Message sequences in, items out: ordinals, counts, markers and offsets as the wire format defines them. */
class TransactionTrackerTest {
    private static final long GEN = 7;
    private static final MessageSeal SEAL = MessageSeal.configured("shop", "a key of sixteen characters");
    private static final long NOW_US = 1_700_000_000_000_000L;
    private static final long COMMIT_US = 1_699_999_999_000_000L;
    private static final int ORDERS = 16_001;
    private static final int LINES = 16_002;
    private static final TopicNames TOPICS = TopicNames.perTable("shop");

    private final List<StreamItem> items = new ArrayList<>();

    private TransactionTracker tracker(Lsn resume, boolean beginMarkers) {
        return tracker(resume, beginMarkers, OriginFilter.ANY);
    }

    private TransactionTracker tracker(Lsn resume, boolean beginMarkers, OriginFilter origins) {
        RelationCache relations = new RelationCache(new RelationDescriptorFactory(
                "shop", TOPICS, ValueMappings.DEFAULT, new EnvelopeSchemas(), PgColumnType::of, RowKeyColumns.NONE));
        return new TransactionTracker(
                relations,
                TOPICS.messagesTopic(),
                GEN,
                resume,
                beginMarkers,
                new MessageFilter(true, Set.of()),
                origins,
                new SnapshotStream(SEAL, GEN, null),
                SEAL,
                items::add);
    }

    private static RelationMessage relation(long xid, int id, String table) {
        return new RelationMessage(
                xid,
                id,
                "public",
                table,
                'd',
                List.of(new RelationColumn("id", 23, -1, true), new RelationColumn("note", 25, -1, false)));
    }

    private static void feed(TransactionTracker tracker, long lsn, PgOutputMessage... messages) throws Exception {
        for (PgOutputMessage message : messages) {
            tracker.accept(message, Lsn.valueOf(lsn), NOW_US);
        }
    }

    private static Lsn lsn(long value) {
        return Lsn.valueOf(value);
    }

    private static ChangeStamp stamp(StreamItem item) {
        if (item instanceof StreamItem.Change c) {
            return c.stamp();
        }
        if (item instanceof StreamItem.Truncate t) {
            return t.stamp();
        }
        return ((StreamItem.Message) item).stamp();
    }

    private static <M extends Marker> M marker(StreamItem item, Class<M> type) {
        return assertInstanceOf(
                type, assertInstanceOf(StreamItem.MarkerItem.class, item).marker());
    }

    @Test
    void committedTransactionGetsOrdinalsPerTablePositionsAndCountsInItsEnd() throws Exception {
        TransactionTracker tracker = tracker(lsn(0x50), true);
        tracker.start(1000, new ServerIdentity("7301234567890123456", 1));
        feed(tracker, 0x100, new BeginMessage(lsn(0x400), COMMIT_US, 500));
        feed(tracker, 0x100, relation(0, ORDERS, "orders"), new InsertMessage(0, ORDERS, null));
        feed(tracker, 0x180, new InsertMessage(0, ORDERS, null));
        feed(tracker, 0x200, relation(0, LINES, "lines"), new UpdateMessage(0, LINES, '\0', null, null));
        feed(tracker, 0x280, new DeleteMessage(0, ORDERS, 'K', null));
        assertTrue(!tracker.idle(), "a transaction is open");
        feed(tracker, 0x410, new CommitMessage(0, lsn(0x400), lsn(0x410), COMMIT_US));
        assertTrue(tracker.idle());

        assertEquals(7, items.size());
        Marker.Start start = marker(items.get(0), Marker.Start.class);
        assertEquals(new Marker.Start(GEN, 1000, lsn(0x50), "7301234567890123456", 1L), start);
        assertEquals(SourceOffset.between(lsn(0x50), GEN), items.get(0).offset());
        assertEquals(new Marker.Begin(GEN, 500, lsn(0x400), COMMIT_US), marker(items.get(1), Marker.Begin.class));

        List<Op> ops = List.of(Op.CREATE, Op.CREATE, Op.UPDATE, Op.DELETE);
        long[] positions = {1, 2, 1, 3};
        long[] changeLsns = {0x100, 0x180, 0x200, 0x280};
        for (int i = 0; i < 4; i++) {
            StreamItem.Change change = assertInstanceOf(StreamItem.Change.class, items.get(2 + i));
            assertEquals(ops.get(i), change.op());
            ChangeStamp stamp = change.stamp();
            assertEquals(
                    new ChangeStamp(500, null, i + 1, positions[i], lsn(changeLsns[i]), COMMIT_US, null, GEN), stamp);
            assertEquals(new SourceOffset(lsn(0x50), GEN, 500L, i + 1L, lsn(changeLsns[i])), change.offset());
        }
        assertEquals("lines", ((StreamItem.Change) items.get(4)).relation().table());

        Marker.End end = marker(items.get(6), Marker.End.class);
        assertEquals(
                new Marker.End(
                        GEN,
                        500,
                        lsn(0x400),
                        lsn(0x410),
                        COMMIT_US,
                        4,
                        List.of(
                                new DataCollectionCount("public.orders", 3, "shop.public.orders"),
                                new DataCollectionCount("public.lines", 1, "shop.public.lines"))),
                end);
        assertEquals(SourceOffset.between(lsn(0x410), GEN), items.get(6).offset());
    }

    @Test
    void theNextTransactionCarriesTheNewCommitEndAndThePreviousCommitLsn() throws Exception {
        TransactionTracker tracker = tracker(lsn(0x50), false);
        feed(tracker, 0x100, relation(0, ORDERS, "orders"));
        feed(tracker, 0x100, new BeginMessage(lsn(0x400), COMMIT_US, 500), new InsertMessage(0, ORDERS, null));
        feed(tracker, 0x410, new CommitMessage(0, lsn(0x400), lsn(0x410), COMMIT_US));
        feed(tracker, 0x300, new BeginMessage(lsn(0x500), COMMIT_US, 501), new InsertMessage(0, ORDERS, null));
        feed(tracker, 0x510, new CommitMessage(0, lsn(0x500), lsn(0x510), COMMIT_US));

        assertEquals(4, items.size(), "no BEGIN markers");
        StreamItem.Change second = (StreamItem.Change) items.get(2);
        assertEquals(lsn(0x400), second.stamp().lastCommitLsn());
        assertEquals(new SourceOffset(lsn(0x410), GEN, 501L, 1L, lsn(0x300)), second.offset());
    }

    @Test
    void withOriginFilterNoneATransactionWithAnOriginLeavesNoRecordButMovesTheOffset() throws Exception {
        TransactionTracker tracker = tracker(lsn(0x50), true, OriginFilter.NONE);
        feed(tracker, 0x100, new BeginMessage(lsn(0x400), COMMIT_US, 500), new OriginMessage(lsn(0x9000), "pg_1"));
        feed(tracker, 0x100, relation(0, ORDERS, "orders"), new InsertMessage(0, ORDERS, null));
        feed(tracker, 0x200, new UpdateMessage(0, ORDERS, '\0', null, null));
        feed(tracker, 0x410, new CommitMessage(0, lsn(0x400), lsn(0x410), COMMIT_US));
        assertEquals(List.of(), items, "no BEGIN, change or END of the replicated transaction");

        feed(tracker, 0x500, new BeginMessage(lsn(0x600), COMMIT_US, 501), new InsertMessage(0, ORDERS, null));
        feed(tracker, 0x610, new CommitMessage(0, lsn(0x600), lsn(0x610), COMMIT_US));
        assertEquals(3, items.size(), "the local transaction that follows: BEGIN, its change, END");
        StreamItem.Change change = assertInstanceOf(StreamItem.Change.class, items.get(1));
        assertEquals(new SourceOffset(lsn(0x410), GEN, 501L, 1L, lsn(0x500)), change.offset());
        assertEquals(lsn(0x400), change.stamp().lastCommitLsn());
    }

    @Test
    void withOriginFilterAnyATransactionWithAnOriginIsEmitted() throws Exception {
        TransactionTracker tracker = tracker(lsn(0x50), false, OriginFilter.ANY);
        feed(tracker, 0x100, new BeginMessage(lsn(0x400), COMMIT_US, 500), new OriginMessage(lsn(0x9000), "pg_1"));
        feed(tracker, 0x100, relation(0, ORDERS, "orders"), new InsertMessage(0, ORDERS, null));
        feed(tracker, 0x410, new CommitMessage(0, lsn(0x400), lsn(0x410), COMMIT_US));
        assertEquals(2, items.size());
        assertEquals(1, marker(items.get(1), Marker.End.class).eventCount());
    }

    @Test
    void withOriginFilterNoneAStreamedTransactionWithAnOriginLeavesNoRecord() throws Exception {
        TransactionTracker tracker = tracker(lsn(0x50), false, OriginFilter.NONE);
        feed(tracker, 0x100, new StreamStartMessage(700, true), new OriginMessage(Lsn.INVALID, "pg_1"));
        feed(tracker, 0x100, relation(700, ORDERS, "orders"), new InsertMessage(700, ORDERS, null));
        feed(tracker, 0x110, new StreamStopMessage(), new StreamStartMessage(800, true));
        feed(tracker, 0x120, relation(800, ORDERS, "orders"), new InsertMessage(800, ORDERS, null));
        feed(tracker, 0x130, new StreamStopMessage(), new StreamStartMessage(700, false));
        feed(tracker, 0x140, new InsertMessage(701, ORDERS, null), new StreamStopMessage());
        feed(tracker, 0x150, new StreamAbortMessage(700, 701, lsn(0x150), 0));
        feed(tracker, 0x170, new StreamCommitMessage(700, 0, lsn(0x160), lsn(0x170), COMMIT_US));
        feed(tracker, 0x190, new StreamCommitMessage(800, 0, lsn(0x180), lsn(0x190), COMMIT_US));
        assertTrue(tracker.idle());

        assertEquals(2, items.size(), "only the local transaction 800: its change and END");
        assertEquals(800, stamp(items.get(0)).xid());
        assertEquals(1, marker(items.get(1), Marker.End.class).eventCount());
    }

    @Test
    void anOriginMessageAfterRecordsOfItsTransactionFailsTheReader() throws Exception {
        TransactionTracker tracker = tracker(lsn(0x50), false, OriginFilter.NONE);
        feed(tracker, 0x100, new BeginMessage(lsn(0x400), COMMIT_US, 500));
        feed(tracker, 0x100, relation(0, ORDERS, "orders"), new InsertMessage(0, ORDERS, null));
        ConnectException e = assertThrows(
                ConnectException.class, () -> feed(tracker, 0x200, new OriginMessage(lsn(0x9000), "pg_1")));
        assertTrue(e.getMessage().contains("xid 500"), e.getMessage());
    }

    @Test
    void interleavedStreamedTransactionsCountPerSubtransactionAndAbortCancelsOnlyThatOne() throws Exception {
        TransactionTracker tracker = tracker(lsn(0x50), false);
        feed(tracker, 0x100, new StreamStartMessage(700, true));
        assertTrue(tracker.insideStream());
        feed(tracker, 0x100, relation(700, ORDERS, "orders"), new InsertMessage(700, ORDERS, null));
        feed(tracker, 0x110, new InsertMessage(701, ORDERS, null), new StreamStopMessage());
        feed(tracker, 0x120, new StreamStartMessage(800, true), relation(800, ORDERS, "orders"));
        feed(tracker, 0x120, new InsertMessage(800, ORDERS, null), new StreamStopMessage());
        feed(tracker, 0x130, new StreamStartMessage(700, false), new InsertMessage(702, ORDERS, null));
        byte[] content = "hello".getBytes(StandardCharsets.UTF_8);
        feed(
                tracker,
                0x140,
                new LogicalDecodingMessage(702, true, lsn(0x140), "app", content),
                new StreamStopMessage());
        feed(tracker, 0x150, new StreamAbortMessage(700, 701, lsn(0x150), 0));
        feed(tracker, 0x170, new StreamCommitMessage(800, 0, lsn(0x160), lsn(0x170), COMMIT_US));
        assertTrue(!tracker.idle(), "xid 700 is still open");
        feed(tracker, 0x190, new StreamCommitMessage(700, 0, lsn(0x180), lsn(0x190), COMMIT_US));
        assertTrue(tracker.idle());

        assertEquals(8, items.size());
        assertEquals(new ChangeStamp(700, 700L, 1, 1, lsn(0x100), NOW_US, null, GEN), stamp(items.get(0)));
        assertEquals(new ChangeStamp(700, 701L, 2, 2, lsn(0x110), NOW_US, null, GEN), stamp(items.get(1)));
        assertEquals(new ChangeStamp(800, 800L, 1, 1, lsn(0x120), NOW_US, null, GEN), stamp(items.get(2)));
        assertEquals(new ChangeStamp(700, 702L, 3, 3, lsn(0x130), NOW_US, null, GEN), stamp(items.get(3)));
        StreamItem.Message message = assertInstanceOf(StreamItem.Message.class, items.get(4));
        assertEquals(new ChangeStamp(700, 702L, 4, 1, lsn(0x140), NOW_US, null, GEN), message.stamp());
        assertTrue(message.message().transactional());

        Marker.Abort abort = marker(items.get(5), Marker.Abort.class);
        assertEquals(new Marker.Abort(GEN, NOW_US / 1000, 700, 701, lsn(0x150)), abort);
        assertEquals(
                new SourceOffset(lsn(0x50), GEN, 700L, null, null), items.get(5).offset());

        Marker.End end800 = marker(items.get(6), Marker.End.class);
        assertEquals(1, end800.eventCount());
        assertEquals(lsn(0x170), end800.endLsn());
        Marker.End end700 = marker(items.get(7), Marker.End.class);
        assertEquals(3, end700.eventCount(), "the record of subtransaction 701 is cancelled");
        assertEquals(
                List.of(
                        new DataCollectionCount("public.orders", 2, "shop.public.orders"),
                        new DataCollectionCount("messages", 1, "shop.messages")),
                end700.dataCollections());
        assertEquals(SourceOffset.between(lsn(0x190), GEN), items.get(7).offset());
    }

    @Test
    void relationsSentForASubtransactionInsideAStreamServeTheWholeStream() throws Exception {
        TransactionTracker tracker = tracker(lsn(0x50), false);
        feed(tracker, 0x100, new StreamStartMessage(700, true), relation(701, LINES, "lines"));
        feed(tracker, 0x100, new InsertMessage(702, LINES, null), new StreamStopMessage());
        assertEquals("lines", ((StreamItem.Change) items.get(0)).relation().table());
    }

    @Test
    void wholeAbortWithoutAbortLsnEndsTheTransactionWithAnAbortMarker() throws Exception {
        TransactionTracker tracker = tracker(lsn(0x50), true);
        feed(tracker, 0x100, new StreamStartMessage(900, true), relation(900, ORDERS, "orders"));
        feed(tracker, 0x100, new InsertMessage(900, ORDERS, null), new StreamStopMessage());
        feed(tracker, 0, new StreamAbortMessage(900, 900, Lsn.INVALID, 0));

        assertEquals(3, items.size());
        Marker.Begin begin = marker(items.get(0), Marker.Begin.class);
        assertEquals(new Marker.Begin(GEN, 900, Lsn.INVALID, NOW_US), begin);
        Marker.Abort abort = marker(items.get(2), Marker.Abort.class);
        assertTrue(abort.isTopLevel());
        assertEquals(Lsn.INVALID, abort.abortLsn());
        assertTrue(tracker.idle());
    }

    @Test
    void abortsOfSubtransactionsWithoutRecordsLeaveNoMarker() throws Exception {
        TransactionTracker tracker = tracker(lsn(0x50), false);
        feed(tracker, 0x100, new StreamStartMessage(900, true), relation(900, ORDERS, "orders"));
        feed(tracker, 0x100, new InsertMessage(900, ORDERS, null), new StreamStopMessage());
        feed(tracker, 0x200, new StreamAbortMessage(900, 905, lsn(0x200), 0));
        feed(tracker, 0x200, new StreamAbortMessage(999, 999, lsn(0x200), 0));
        assertEquals(1, items.size());
    }

    @Test
    void truncateOfSeveralTablesBecomesOneRecordPerTable() throws Exception {
        TransactionTracker tracker = tracker(lsn(0x50), false);
        feed(tracker, 0x100, relation(0, ORDERS, "orders"), relation(0, LINES, "lines"));
        feed(tracker, 0x100, new BeginMessage(lsn(0x400), COMMIT_US, 600));
        feed(tracker, 0x200, new TruncateMessage(0, List.of(ORDERS, LINES), true, false));
        feed(tracker, 0x410, new CommitMessage(0, lsn(0x400), lsn(0x410), COMMIT_US));

        assertEquals(3, items.size());
        StreamItem.Truncate first = assertInstanceOf(StreamItem.Truncate.class, items.get(0));
        StreamItem.Truncate second = assertInstanceOf(StreamItem.Truncate.class, items.get(1));
        assertEquals("orders", first.relation().table());
        assertEquals("lines", second.relation().table());
        assertTrue(first.options().cascade());
        assertEquals(1, first.stamp().ordinal());
        assertEquals(2, second.stamp().ordinal());
        assertEquals(1, second.stamp().dataCollectionOrder());
        assertEquals(2, marker(items.get(2), Marker.End.class).eventCount());
    }

    @Test
    void nonTransactionalMessageBelongsToNoTransaction() throws Exception {
        TransactionTracker tracker = tracker(lsn(0x50), false);
        byte[] content = {1, 2, 3};
        feed(tracker, 0x100, new LogicalDecodingMessage(0, false, lsn(0x100), "app", content));
        StreamItem.Message message = assertInstanceOf(StreamItem.Message.class, items.get(0));
        assertEquals(0, message.stamp().xid());
        assertNull(message.stamp().transaction());
        assertEquals(SourceOffset.between(lsn(0x50), GEN), message.offset());
        assertTrue(tracker.idle());
    }

    @Test
    void transactionCommittedBeforeTheResumePointIsDroppedWhole() throws Exception {
        TransactionTracker tracker = tracker(lsn(0x400), true);
        feed(tracker, 0x100, relation(0, ORDERS, "orders"));
        feed(tracker, 0x100, new BeginMessage(lsn(0x300), COMMIT_US, 500), new InsertMessage(0, ORDERS, null));
        feed(tracker, 0x310, new CommitMessage(0, lsn(0x300), lsn(0x310), COMMIT_US));
        assertTrue(items.isEmpty());
        feed(tracker, 0x200, new BeginMessage(lsn(0x400), COMMIT_US, 501), new InsertMessage(0, ORDERS, null));
        feed(tracker, 0x410, new CommitMessage(0, lsn(0x400), lsn(0x410), COMMIT_US));
        assertEquals(3, items.size(), "BEGIN, change, END of the transaction at the resume point");
    }

    @Test
    void emptyTransactionLeavesNoTrace() throws Exception {
        TransactionTracker tracker = tracker(lsn(0x50), true);
        feed(tracker, 0x100, new BeginMessage(lsn(0x400), COMMIT_US, 500));
        feed(tracker, 0x410, new CommitMessage(0, lsn(0x400), lsn(0x410), COMMIT_US));
        assertTrue(items.isEmpty());
        tracker.heartbeat(lsn(0x500), 2000);
        assertEquals(new Marker.Heartbeat(GEN, 2000, lsn(0x500)), marker(items.get(0), Marker.Heartbeat.class));
        assertEquals(SourceOffset.between(lsn(0x500), GEN), items.get(0).offset());
    }

    @Test
    void changeOutsideATransactionNamesItsLsn() {
        TransactionTracker tracker = tracker(lsn(0x50), false);
        ConnectException e =
                assertThrows(ConnectException.class, () -> feed(tracker, 0x1234, new InsertMessage(0, ORDERS, null)));
        assertTrue(e.getMessage().contains("outside any transaction at LSN 0/1234"), e.getMessage());
    }

    @Test
    void commitThatDoesNotMatchItsBeginNamesBothLsns() throws Exception {
        TransactionTracker tracker = tracker(lsn(0x50), false);
        feed(tracker, 0x100, new BeginMessage(lsn(0x400), COMMIT_US, 500));
        ConnectException e = assertThrows(
                ConnectException.class,
                () -> feed(tracker, 0x510, new CommitMessage(0, lsn(0x500), lsn(0x510), COMMIT_US)));
        assertTrue(e.getMessage().contains("0/500") && e.getMessage().contains("0/400"), e.getMessage());
    }

    @Test
    void streamChunkWithoutItsFirstSegmentIsAnError() {
        TransactionTracker tracker = tracker(lsn(0x50), false);
        ConnectException e =
                assertThrows(ConnectException.class, () -> feed(tracker, 0x100, new StreamStartMessage(700, false)));
        assertTrue(e.getMessage().contains("without its first segment"), e.getMessage());
    }
}
