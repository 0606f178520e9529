package dev.pglane.sink.assemble;

import static dev.pglane.sink.assemble.Changes.MARKERS;
import static dev.pglane.sink.assemble.Changes.end;
import static dev.pglane.sink.assemble.Changes.insert;
import static dev.pglane.sink.assemble.Changes.items;
import static dev.pglane.sink.assemble.Changes.orders;
import static dev.pglane.sink.assemble.Changes.start;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.pglane.sink.progress.AppliedPosition;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.apache.kafka.connect.errors.ConnectException;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/** Copies that never complete stop pinning consumer offsets after a bounded number of END markers. */
@Timeout(30)
class TransactionAssemblerAgingTest {
    private static final long BOUND = 32;
    private static final long GENERATION = 1;

    @TempDir
    Path spillDirectory;

    private final Map<String, Long> dropped = new HashMap<>();
    private final List<Long> abandoned = new ArrayList<>();
    private SpillArea spillArea;
    private TransactionAssembler assembler;
    /** The next xid and end LSN of the filler transactions that make the ENDs go by. */
    private long nextXid = 1000;

    @BeforeEach
    void setUp() throws IOException {
        spillArea = SpillArea.open(spillDirectory, "aging-test");
        AssemblerListener listener = new AssemblerListener() {
            @Override
            public void spilled(long xid, long bytes) {}

            @Override
            public void dropped(String reason, long records) {
                dropped.merge(reason, records, Long::sum);
            }

            @Override
            public void abandoned(long xid, long records) {
                abandoned.add(xid);
            }
        };
        assembler = new TransactionAssembler(
                new AssemblerSettings(1L << 30, spillArea, Long.MAX_VALUE, topic -> true, BOUND),
                AppliedPosition.NONE,
                listener);
        assembler.addMarker(start(GENERATION), MARKERS, 0);
    }

    @AfterEach
    void closeSpillArea() {
        spillArea.close();
    }

    /** {@code count} complete one-record transactions on items, each with its END: the clock of the aging. */
    private void completeTransactions(long count) {
        for (int i = 0; i < count; i++) {
            long xid = nextXid++;
            ChangeRecord record = insert(xid, GENERATION, 1, items(), xid);
            assembler.addChange(record);
            assembler.addMarker(end(xid, GENERATION, 0x1000 + xid * 16, List.of(record)), MARKERS, xid);
            assertEquals(1, assembler.drainReady().size());
        }
    }

    @Test
    void aCopyWhoseEndNeverComesStopsPinningItsPartitionAfterTheBound() {
        assembler.addChange(insert(7, GENERATION, 1, orders(0), 10));
        completeTransactions(BOUND - 1);
        assertEquals(10L, assembler.pendingFloors().get(orders(0)), "held within the bound");

        completeTransactions(BOUND);

        assertNull(assembler.pendingFloors().get(orders(0)), "the orders partition is no longer pinned");
        assertEquals(List.of(7L), abandoned);
        assertEquals(1L, dropped.get("abandoned without END"));
        assertEquals(0, assembler.bufferedTransactions());
        assembler.addChange(insert(7, GENERATION, 2, orders(0), 11));
        assertEquals(2L, dropped.get("abandoned without END"), "a later record of it is dropped too");
    }

    @Test
    void aStreamedCopyOfTheAnnouncedGenerationWaitsForItsEndHoweverLong() {
        assembler.addChange(insert(7, GENERATION, 1, 70L, orders(0), 10));

        completeTransactions(BOUND * 4);

        assertEquals(10L, assembler.pendingFloors().get(orders(0)));
        assertTrue(abandoned.isEmpty());
    }

    @Test
    void aCopyClaimingAGenerationNoRunAnnouncedIsDroppedAfterTheBoundEvenIfStreamed() {
        assembler.addChange(insert(7, Long.MAX_VALUE, 1, 70L, orders(0), 10));

        completeTransactions(BOUND * 2);

        assertNull(assembler.pendingFloors().get(orders(0)));
        assertEquals(List.of(7L), abandoned);
    }

    @Test
    void aCopyOfALaterRunWhoseStartArrivesInTimeIsKept() {
        ChangeRecord early = insert(7, GENERATION + 1, 1, orders(0), 10);
        assembler.addChange(early);
        completeTransactions(BOUND - 2);
        assembler.addMarker(start(GENERATION + 1), MARKERS, 500);
        assembler.addMarker(end(7, GENERATION + 1, 0x900000, List.of(early)), MARKERS, 501);

        assertEquals(
                List.of(7L),
                assembler.drainReady().stream().map(SourceTransaction::xid).toList());
        assertTrue(abandoned.isEmpty());
    }

    @Test
    void anUnannouncedGenerationNoLongerMakesEveryHeadAwaitAResend() {
        ChangeRecord forged = insert(7, Long.MAX_VALUE, 1, orders(0), 10);
        assembler.addChange(forged);
        completeTransactions(BOUND * 2);
        ChangeRecord order = insert(8, GENERATION, 1, orders(1), 20);
        ChangeRecord item = insert(8, GENERATION, 2, items(), 30);
        assembler.addChange(item);
        assembler.addMarker(end(8, GENERATION, 0x800000, List.of(order, item)), MARKERS, 600);

        Awaited awaited = assembler.awaited();

        assertFalse(awaited.markers(), "no later run can resend xid 8 once the forged copy is gone");
        assertEquals(java.util.Set.of(Changes.ORDERS), awaited.topics());
    }

    @Test
    void undecodableRecordsOfAnXidThatNeverEndsStopPinningTheirPartitionAfterTheBound() {
        assembler.addPoison(orders(0), 10, 7);
        completeTransactions(BOUND - 1);
        assertEquals(10L, assembler.pendingFloors().get(orders(0)));

        completeTransactions(BOUND);

        assertNull(assembler.pendingFloors().get(orders(0)));
        assertEquals(List.of(7L), abandoned);
    }

    @Test
    void anEndThatComesAfterItsCopyWasAbandonedStopsTheTaskNamingIt() {
        ChangeRecord record = insert(7, GENERATION, 1, orders(0), 10);
        assembler.addChange(record);
        completeTransactions(BOUND * 2);

        ConnectException e = assertThrows(
                ConnectException.class,
                () -> assembler.addMarker(end(7, GENERATION, 0x900000, List.of(record)), MARKERS, 900));

        assertTrue(e.getMessage().contains("shop.transactions-0@900"), e.getMessage());
        assertTrue(e.getMessage().contains("abandoned"), e.getMessage());
    }
}
