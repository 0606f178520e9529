package dev.pglane.sink.assemble;

import static dev.pglane.sink.assemble.Changes.MARKERS;
import static dev.pglane.sink.assemble.Changes.abort;
import static dev.pglane.sink.assemble.Changes.end;
import static dev.pglane.sink.assemble.Changes.insert;
import static dev.pglane.sink.assemble.Changes.items;
import static dev.pglane.sink.assemble.Changes.orders;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.pglane.sink.progress.AppliedPosition;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.LongStream;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

@Timeout(120)
class TransactionAssemblerSpillTest {
    private static final long ONE_MIB = 1L << 20;
    /** spill.max.bytes: the 100,000-record transaction (about 27 MB on disk) exceeds it, the others do not. */
    private static final long CAP = 16 * ONE_MIB;

    @TempDir
    Path spillDirectory;

    private final Map<Long, Long> spilledBytes = new HashMap<>();
    private final List<String> overCap = new ArrayList<>();
    private SpillArea spillArea;

    @BeforeEach
    void openSpillArea() throws IOException {
        spillArea = SpillArea.open(spillDirectory, "spill-test");
    }

    @AfterEach
    void closeSpillArea() {
        spillArea.close();
    }

    private TransactionAssembler assembler() {
        AssemblerListener listener = new AssemblerListener() {
            @Override
            public void spilled(long xid, long bytes) {
                spilledBytes.merge(xid, bytes, Long::sum);
            }

            @Override
            public void dropped(String reason, long records) {}

            @Override
            public void spilledOverCap(long xid, long generation, long bytes, long maxBytes) {
                overCap.add("xid " + xid + " generation " + generation + " over " + maxBytes);
                assertTrue(bytes > maxBytes, bytes + " > " + maxBytes);
            }
        };
        return new TransactionAssembler(
                new AssemblerSettings(ONE_MIB, spillArea, CAP, topic -> true), AppliedPosition.NONE, listener);
    }

    @Test
    void aHundredThousandRecordTransactionSpillsAndComesBackInOrderTwice() throws IOException {
        TransactionAssembler assembler = assembler();
        List<ChangeRecord> records = new ArrayList<>();
        // two partitions interleaved: orders on partition 1, every third record on items
        for (long order = 1; order <= 100_000; order++) {
            records.add(order % 3 == 0 ? insert(7, 1, order, items(), order) : insert(7, 1, order, orders(1), order));
        }
        for (ChangeRecord record : records) {
            assembler.addChange(record);
            assertTrue(assembler.bufferedBytes() <= ONE_MIB, "the buffer stays under its limit");
        }
        assembler.addMarker(end(7, 1, 0x100, records), MARKERS, 1);

        SourceTransaction transaction = assembler.drainReady().get(0);

        assertTrue(transaction.changes().spilled());
        assertTrue(spilledBytes.get(7L) > 0);
        assertEquals(List.of("xid 7 generation 1 over " + CAP), overCap, "reported once, when it passed");
        assertTrue(spillArea.bytes() > CAP, "the area counts the files' bytes: " + spillArea.bytes());
        assertEquals(100_000, transaction.changes().count());
        for (int pass = 0; pass < 2; pass++) {
            List<ChangeRecord> back = new ArrayList<>();
            transaction.changes().forEach(back::add);
            assertEquals(records, back, "pass " + pass);
        }
        transaction.changes().close();
        assertEquals(List.of(), spillFiles());
        assertEquals(0, spillArea.bytes(), "deleted files are no longer counted");
    }

    @Test
    void aSpilledCopyKeepsReceivingRecordsAndHonoursLaterAborts() {
        TransactionAssembler assembler = assembler();
        List<ChangeRecord> kept = new ArrayList<>();
        long order = 1;
        // large enough to spill: records of the top level (kept) and of subtransaction 9 (aborted)
        for (; order <= 30_000; order++) {
            ChangeRecord record = insert(7, 1, order, order % 2 == 0 ? 9L : 7L, orders(1), order);
            assembler.addChange(record);
            if (order % 2 != 0) {
                kept.add(record);
            }
        }
        assertEquals(0, assembler.bufferedBytes(), "the copy was spilled");
        assembler.addMarker(abort(7, 9, 1), MARKERS, 1);
        ChangeRecord late = insert(7, 1, order, 7L, items(), 5);
        kept.add(late);
        assembler.addMarker(end(7, 1, 0x100, kept), MARKERS, 2);
        assertTrue(assembler.drainReady().isEmpty());

        assembler.addChange(late);

        SourceTransaction transaction = assembler.drainReady().get(0);
        assertEquals(kept.size(), transaction.changes().count());
        List<Long> expected = kept.stream()
                .map(record -> record.event().transaction().totalOrder())
                .toList();
        assertEquals(expected, Changes.orders(transaction));
        assertEquals(List.of(), overCap, "under the cap");
        transaction.changes().close();
    }

    @Test
    void closingTheAssemblerDeletesTheSpillFilesOfHeldCopies() throws IOException {
        TransactionAssembler assembler = assembler();
        LongStream.rangeClosed(1, 20_000).forEach(order -> assembler.addChange(insert(7, 1, order, orders(1), order)));
        assertFalse(spillFiles().isEmpty());

        assembler.close();

        assertEquals(List.of(), spillFiles());
        assertEquals(0, spillArea.bytes());
        assertEquals(0, assembler.bufferedTransactions());
    }

    private List<Path> spillFiles() throws IOException {
        try (Stream<Path> files = Files.list(spillArea.directory())) {
            return files.toList();
        }
    }
}
