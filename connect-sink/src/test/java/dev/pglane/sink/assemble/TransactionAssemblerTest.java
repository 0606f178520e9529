package dev.pglane.sink.assemble;

import static dev.pglane.sink.assemble.Changes.MARKERS;
import static dev.pglane.sink.assemble.Changes.abort;
import static dev.pglane.sink.assemble.Changes.end;
import static dev.pglane.sink.assemble.Changes.insert;
import static dev.pglane.sink.assemble.Changes.items;
import static dev.pglane.sink.assemble.Changes.message;
import static dev.pglane.sink.assemble.Changes.orders;
import static dev.pglane.sink.assemble.Changes.start;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.pglane.sink.progress.AppliedPosition;
import dev.pglane.wire.Lsn;
import dev.pglane.wire.envelope.ChangeEvent;
import dev.pglane.wire.envelope.LogicalMessage;
import dev.pglane.wire.envelope.Op;
import dev.pglane.wire.marker.Marker;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.connect.errors.ConnectException;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

@Timeout(30)
class TransactionAssemblerTest {
    @TempDir
    Path spillDirectory;

    private final Map<String, Long> dropped = new HashMap<>();
    private final List<String> resentCopies = new ArrayList<>();
    private SpillArea spillArea;
    private TransactionAssembler assembler;

    @BeforeEach
    void setUp() throws IOException {
        spillArea = SpillArea.open(spillDirectory, "assembler-test");
        assembler = assembler(AppliedPosition.NONE);
    }

    @AfterEach
    void closeSpillArea() {
        spillArea.close();
    }

    private TransactionAssembler assembler(AppliedPosition applied) {
        AssemblerListener listener = new AssemblerListener() {
            @Override
            public void spilled(long xid, long bytes) {}

            @Override
            public void dropped(String reason, long records) {
                dropped.merge(reason, records, Long::sum);
            }

            @Override
            public void resent(long xid, long lostGeneration, long resentGeneration) {
                resentCopies.add(xid + ": " + lostGeneration + " -> " + resentGeneration);
            }
        };
        return new TransactionAssembler(
                new AssemblerSettings(1L << 30, spillArea, Long.MAX_VALUE, topic -> !topic.equals(Changes.MESSAGES)),
                applied,
                listener);
    }

    @Test
    void releasesACopyOnceItsEndAndAllItsRecordsArrivedInTotalOrder() {
        List<ChangeRecord> records =
                List.of(insert(7, 1, 1, orders(1), 10), insert(7, 1, 2, items(), 5), insert(7, 1, 3, orders(1), 11));
        assembler.addChange(records.get(1));
        assembler.addMarker(end(7, 1, 0x100, records), MARKERS, 40);
        assertTrue(assembler.drainReady().isEmpty(), "records of orders are still missing");
        assembler.addChange(records.get(2));
        assembler.addChange(records.get(0));

        List<SourceTransaction> ready = assembler.drainReady();

        assertEquals(1, ready.size());
        SourceTransaction transaction = ready.get(0);
        assertEquals(7, transaction.xid());
        assertEquals(List.of(1L, 2L, 3L), Changes.orders(transaction));
        assertEquals(40, transaction.markerOffset());
        assertEquals(Map.of(orders(1), 10L, items(), 5L, MARKERS, 40L), transaction.firstOffsets());
        assertFalse(transaction.changes().spilled());
        assertEquals(0, assembler.bufferedTransactions());
        assertEquals(0, assembler.bufferedBytes());
    }

    @Test
    void aCompleteCopyWaitsBehindAnEarlierIncompleteOne() {
        ChangeRecord first = insert(7, 1, 1, orders(1), 10);
        ChangeRecord second = insert(8, 1, 1, orders(0), 3);
        assembler.addMarker(end(7, 1, 0x100, List.of(first)), MARKERS, 1);
        assembler.addChange(second);
        assembler.addMarker(end(8, 1, 0x200, List.of(second)), MARKERS, 2);
        assertTrue(assembler.drainReady().isEmpty());

        assembler.addChange(first);

        assertEquals(
                List.of(7L, 8L),
                assembler.drainReady().stream().map(SourceTransaction::xid).toList());
    }

    @Test
    void awaitsTheNextEndThenTheTopicsItsRecordsAreMissingOn() {
        ChangeRecord order = insert(7, 1, 1, orders(1), 10);
        ChangeRecord item = insert(7, 1, 2, items(), 5);
        assembler.addChange(item);
        assertEquals(Awaited.END, assembler.awaited(), "no END yet");

        assembler.addMarker(end(7, 1, 0x100, List.of(order, item)), MARKERS, 40);
        assembler.drainReady();
        assertEquals(new Awaited(false, Set.of(Changes.ORDERS)), assembler.awaited());

        assembler.addChange(insert(9, 2, 1, orders(0), 11));
        assertEquals(
                new Awaited(true, Set.of(Changes.ORDERS, Changes.ITEMS)),
                assembler.awaited(),
                "a later run started: it may send the transaction again, END included, and its copy needs the"
                        + " records on every topic, items too, which the first copy has");

        assembler.addChange(order);
        assembler.drainReady();
        assertEquals(Awaited.END, assembler.awaited(), "released");
    }

    @Test
    void aTransactionWithoutCountedRecordsIsReleasedEmpty() {
        ChangeRecord message = Changes.message(9, 1, 1, new TopicPartition(Changes.MESSAGES, 0), 4);
        assembler.addMarker(end(9, 1, 0x100, List.of(message)), MARKERS, 1);

        List<SourceTransaction> ready = assembler.drainReady();

        assertEquals(1, ready.size(), "the messages topic is not consumed, so nothing is awaited");
        assertEquals(0, ready.get(0).changes().count());
    }

    @Test
    void messagesCountAndStayInTheTransaction() {
        TopicPartition messages = new TopicPartition(Changes.MESSAGES, 0);
        TransactionAssembler countingMessages = new TransactionAssembler(
                new AssemblerSettings(1L << 30, spillArea, Long.MAX_VALUE, topic -> true),
                AppliedPosition.NONE,
                AssemblerListener.NONE);
        List<ChangeRecord> records = List.of(insert(9, 1, 1, orders(1), 1), Changes.message(9, 1, 2, messages, 8));
        countingMessages.addChange(records.get(0));
        countingMessages.addMarker(end(9, 1, 0x100, records), MARKERS, 1);
        assertTrue(countingMessages.drainReady().isEmpty());

        countingMessages.addChange(records.get(1));

        SourceTransaction transaction = countingMessages.drainReady().get(0);
        List<Op> ops = new ArrayList<>();
        transaction.changes().forEach(record -> ops.add(record.event().op()));
        assertEquals(List.of(Op.CREATE, Op.MESSAGE), ops);
    }

    @Test
    void dropsRedeliveredRecordsAndMarkers() {
        ChangeRecord record = insert(7, 1, 1, orders(1), 10);
        assembler.addChange(record);
        assembler.addChange(record);
        assembler.addMarker(end(7, 1, 0x100, List.of(record)), MARKERS, 1);
        assembler.addMarker(end(7, 1, 0x100, List.of(record)), MARKERS, 1);
        assertEquals(1, assembler.drainReady().get(0).changes().count());

        assembler.addChange(record);
        assembler.addMarker(end(7, 1, 0x100, List.of(record)), MARKERS, 1);

        assertTrue(assembler.drainReady().isEmpty());
        assertEquals(0, assembler.bufferedTransactions(), "late duplicates of a released copy are not buffered");
        assertEquals(2L, dropped.get("duplicate"));
    }

    @Test
    void anotherChangeAtAPlaceAlreadyHeldStopsTheTaskInsteadOfPassingForADuplicate() {
        assembler.addChange(insert(7, 1, 1, orders(1), 10));

        ConnectException e =
                assertThrows(ConnectException.class, () -> assembler.addChange(message(7, 1, 1, orders(0), 11)));

        assertTrue(e.getMessage().contains("is change 1 of"), e.getMessage());
        assertTrue(e.getMessage().contains("numbered the transaction's changes differently"), e.getMessage());
    }

    @Test
    void dropsNonTransactionalMessages() {
        ChangeEvent event = ChangeEvent.builder(Op.MESSAGE, Changes.messageSource(0), null)
                .message(new LogicalMessage("audit", "x".getBytes(StandardCharsets.UTF_8), false))
                .build();

        assembler.addChange(new ChangeRecord(orders(0), 1, event, 10));

        assertEquals(0, assembler.bufferedTransactions());
        assertEquals(1L, dropped.get("non-transactional"));
    }

    @Test
    void startDropsPartialCopiesOfEarlierGenerationsAndTheirLateRecords() {
        ChangeRecord partial = insert(7, 1, 1, orders(1), 10);
        ChangeRecord committed = insert(8, 1, 1, orders(0), 3);
        assembler.addChange(partial);
        assembler.addMarker(end(8, 1, 0x100, List.of(committed)), MARKERS, 1);
        assembler.addMarker(start(2), MARKERS, 2);
        assertEquals(1, assembler.bufferedTransactions(), "only the copy with an END before START stays");

        assembler.addChange(insert(7, 1, 2, orders(1), 11));
        assembler.addChange(committed);

        assertEquals(
                List.of(8L),
                assembler.drainReady().stream().map(SourceTransaction::xid).toList());
        assertEquals(2L, dropped.get("stale"));
        ChangeRecord resent = insert(7, 2, 1, orders(1), 12);
        assembler.addChange(resent);
        assembler.addMarker(end(7, 2, 0x200, List.of(resent)), MARKERS, 3);
        assertEquals(2, assembler.drainReady().get(0).end().generation());
    }

    @Test
    void anAbortedSubtransactionCancelsItsRecordsHeldAndToCome() {
        ChangeRecord kept = insert(7, 1, 1, 7L, orders(1), 10);
        ChangeRecord cancelled = insert(7, 1, 2, 9L, orders(1), 11);
        ChangeRecord lateCancelled = insert(7, 1, 3, 9L, items(), 2);
        ChangeRecord keptLater = insert(7, 1, 4, 7L, items(), 3);
        assembler.addChange(kept);
        assembler.addChange(cancelled);
        assembler.addMarker(abort(7, 9, 1), MARKERS, 5);
        assembler.addMarker(end(7, 1, 0x100, List.of(kept, keptLater)), MARKERS, 6);
        assembler.addChange(lateCancelled);
        assertTrue(assembler.drainReady().isEmpty());

        assembler.addChange(keptLater);

        SourceTransaction transaction = assembler.drainReady().get(0);
        assertEquals(List.of(1L, 4L), Changes.orders(transaction));
        assertEquals(5L, transaction.firstOffsets().get(MARKERS), "the ABORT must be read again after a restart");
        assertEquals(2L, dropped.get("aborted"));
    }

    @Test
    void aTopLevelAbortDropsTheWholeCopyAndItsLaterRecords() {
        assembler.addChange(insert(7, 1, 1, 7L, orders(1), 10));
        assembler.addMarker(abort(7, 7, 1), MARKERS, 5);
        assembler.addChange(insert(7, 1, 2, 7L, orders(1), 11));

        assertEquals(0, assembler.bufferedTransactions());
        assertEquals(2L, dropped.get("aborted"));
        assertTrue(assembler.pendingFloors().isEmpty());
    }

    @Test
    void skipsTransactionsTheAppliedPositionCovers() {
        TransactionAssembler restarted = assembler(new AppliedPosition(Lsn.valueOf(0x100), 0, 7));
        ChangeRecord applied = insert(7, 1, 1, orders(1), 10);
        ChangeRecord next = insert(8, 1, 1, orders(0), 3);
        restarted.addChange(applied);
        restarted.addChange(next);
        restarted.addMarker(end(7, 1, 0x100, List.of(applied)), MARKERS, 1);
        restarted.addMarker(end(8, 1, 0x200, List.of(next)), MARKERS, 2);
        restarted.addChange(applied);

        assertEquals(
                List.of(8L),
                restarted.drainReady().stream().map(SourceTransaction::xid).toList());
        assertEquals(2L, dropped.get("already applied"));
    }

    @Test
    void advancingTheAppliedPositionDropsCoveredCopies() {
        ChangeRecord first = insert(7, 1, 1, orders(1), 10);
        assembler.addMarker(end(7, 1, 0x100, List.of(first, insert(7, 1, 2, orders(1), 11))), MARKERS, 1);
        assembler.addChange(first);

        assembler.advanceApplied(new AppliedPosition(Lsn.valueOf(0x100), 0, 7));

        assertEquals(0, assembler.bufferedTransactions());
        assertTrue(assembler.drainReady().isEmpty());
        assertTrue(assembler.pendingFloors().isEmpty());
    }

    @Test
    void aCopyWhoseRecordsWereLostWithItsRunGivesWayToTheNextRunsCopy() {
        ChangeRecord lost = insert(7, 1, 1, orders(1), 10);
        ChangeRecord later = insert(8, 1, 1, orders(0), 3);
        assembler.addMarker(end(7, 1, 0x100, List.of(lost)), MARKERS, 1);
        assembler.addChange(later);
        assembler.addMarker(end(8, 1, 0x200, List.of(later)), MARKERS, 2);
        assembler.addMarker(start(2), MARKERS, 3);
        assertTrue(assembler.drainReady().isEmpty(), "the END of 7 came before START: 7 may still be complete");

        ChangeRecord resent = insert(7, 2, 1, orders(1), 11);
        assembler.addChange(resent);
        assertTrue(assembler.drainReady().isEmpty(), "the new run's copy has no END yet");
        assembler.addMarker(end(7, 2, 0x100, List.of(resent)), MARKERS, 4);

        List<SourceTransaction> ready = assembler.drainReady();
        assertEquals(List.of(7L, 8L), ready.stream().map(SourceTransaction::xid).toList());
        assertEquals(
                List.of(2L, 1L), ready.stream().map(t -> t.end().generation()).toList());

        assembler.addChange(lost);
        assembler.addChange(insert(8, 2, 1, orders(0), 4));
        assembler.addMarker(end(8, 2, 0x200, List.of(later)), MARKERS, 5);
        assertTrue(assembler.drainReady().isEmpty());
        assertEquals(0, assembler.bufferedTransactions());
        assertEquals(1L, dropped.get("superseded by a later run's copy"), "the lost record, arriving late after all");
    }

    /**
     * Run 1's copy of 7 has its END but lost its record (an aborted Kafka transaction read uncommitted), its copy of
     * 8 is whole; run 2 sends 7 again. 7 of run 2 and then 8 of run 1 are released, neither durable yet, when the
     * task moves: consumer offsets must let the restart read the END of run 1's 7 again, before that of 8, or the
     * restart releases 8 first and then drops 7 as already applied.
     */
    @Test
    void aCopyReleasedInPlaceOfALostOneKeepsTheLostOnesEndReadableAfterARestart() {
        ChangeRecord lost = insert(7, 1, 1, orders(1), 10);
        ChangeRecord whole = insert(8, 1, 1, orders(0), 3);
        ChangeRecord resent = insert(7, 2, 1, orders(1), 11);
        List<Object[]> markers = List.of(
                new Object[] {end(7, 1, 0x100, List.of(lost)), 1L},
                new Object[] {end(8, 1, 0x200, List.of(whole)), 2L},
                new Object[] {start(2), 3L},
                new Object[] {end(7, 2, 0x100, List.of(resent)), 4L});
        assembler.addChange(whole);
        assembler.addChange(resent);
        markers.forEach(m -> assembler.addMarker((Marker) m[0], MARKERS, (Long) m[1]));
        List<SourceTransaction> released = assembler.drainReady();
        assertEquals(
                List.of(7L, 8L), released.stream().map(SourceTransaction::xid).toList());

        // the task moves before either is durable: it reads again from the lowest offsets the ledger holds
        Map<TopicPartition, Long> rewind = new HashMap<>(assembler.pendingFloors());
        released.forEach(
                tx -> tx.firstOffsets().forEach((partition, offset) -> rewind.merge(partition, offset, Math::min)));
        TransactionAssembler restarted = assembler(AppliedPosition.NONE);
        for (ChangeRecord record : List.of(whole, resent)) {
            if (record.offset() >= rewind.getOrDefault(record.partition(), Long.MAX_VALUE)) {
                restarted.addChange(record);
            }
        }
        List<SourceTransaction> again = new ArrayList<>();
        for (Object[] m : markers) {
            if ((Long) m[1] >= rewind.get(MARKERS)) {
                restarted.addMarker((Marker) m[0], MARKERS, (Long) m[1]);
                again.addAll(restarted.drainReady());
            }
        }

        assertEquals(
                List.of(7L, 8L),
                again.stream().map(SourceTransaction::xid).toList(),
                "8 of run 1 must not pass 7, whose copy of run 2 would then be dropped as already applied");
        assertEquals(1L, rewind.get(MARKERS), "the END of run 1's copy of 7");
    }

    @Test
    void aSecondCompleteCopyOfAReleasedTransactionIsSkipped() {
        ChangeRecord original = insert(7, 1, 1, orders(1), 10);
        ChangeRecord resent = insert(7, 2, 1, orders(1), 20);
        assembler.addChange(original);
        assembler.addMarker(end(7, 1, 0x100, List.of(original)), MARKERS, 1);
        assertEquals(1, assembler.drainReady().size());

        assembler.addMarker(start(2), MARKERS, 2);
        assembler.addChange(resent);
        assembler.addMarker(end(7, 2, 0x100, List.of(resent)), MARKERS, 3);

        assertTrue(assembler.drainReady().isEmpty());
        assertEquals(0, assembler.bufferedTransactions());
    }

    @Test
    void anUndecodableRecordCountsForItsTopic() {
        ChangeRecord decoded = insert(7, 1, 1, orders(1), 10);
        assembler.addChange(decoded);
        assembler.addPoison(items(), 4, 7);
        assembler.addPoison(items(), 4, 7);
        assertEquals(4L, assembler.pendingFloors().get(items()));

        assembler.addMarker(end(7, 1, 0x100, List.of(decoded, insert(7, 1, 2, items(), 4))), MARKERS, 1);

        SourceTransaction transaction = assembler.drainReady().get(0);
        assertEquals(1, transaction.changes().count());
        assertEquals(4L, transaction.firstOffsets().get(items()));
        assertTrue(assembler.pendingFloors().isEmpty());
    }

    @Test
    void pendingFloorsMoveAsCopiesAreReleased() {
        ChangeRecord first = insert(7, 1, 1, orders(1), 10);
        ChangeRecord second = insert(8, 1, 1, orders(1), 12);
        assembler.addChange(first);
        assembler.addChange(second);
        assembler.addMarker(end(7, 1, 0x100, List.of(first)), MARKERS, 30);
        assertEquals(Map.of(orders(1), 10L, MARKERS, 30L), assembler.pendingFloors());

        assembler.drainReady();
        assertEquals(Map.of(orders(1), 12L), assembler.pendingFloors());

        assembler.addMarker(end(8, 1, 0x200, List.of(second)), MARKERS, 31);
        assembler.drainReady();
        assertTrue(assembler.pendingFloors().isEmpty());
    }

    @Test
    void moreRecordsThanTheEndAnnouncedFailNamingTheRecord() {
        ChangeRecord first = insert(7, 1, 1, orders(1), 10);
        assembler.addChange(first);
        assembler.addMarker(end(7, 1, 0x100, List.of(first)), MARKERS, 1);

        ConnectException error =
                assertThrows(ConnectException.class, () -> assembler.addChange(insert(7, 1, 2, orders(1), 11)));

        assertTrue(error.getMessage().contains("shop.public.orders-1@11"), error.getMessage());
        assertTrue(error.getMessage().contains("xid 7 generation 1"), error.getMessage());
    }

    @Test
    void anEndAnnouncingFewerRecordsThanArrivedFails() {
        assembler.addChange(insert(7, 1, 1, orders(1), 10));
        assembler.addChange(insert(7, 1, 2, items(), 3));

        ConnectException error = assertThrows(
                ConnectException.class,
                () -> assembler.addMarker(end(7, 1, 0x100, List.of(insert(7, 1, 1, orders(1), 10))), MARKERS, 9));

        assertTrue(error.getMessage().contains("shop.public.items"), error.getMessage());
        assertTrue(error.getMessage().contains("xid 7 generation 1"), error.getMessage());
        assertTrue(error.getMessage().contains("(shop.public.items-0@3)"), "names the records: " + error.getMessage());
    }
}
