package dev.pglane.sink.assemble;

import static dev.pglane.sink.assemble.Changes.MARKERS;
import static dev.pglane.sink.assemble.Changes.end;
import static dev.pglane.sink.assemble.Changes.insert;
import static dev.pglane.sink.assemble.Changes.orders;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;

import dev.pglane.wire.marker.Marker;
import dev.pglane.wire.marker.SnapshotChunk;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class TransactionGroupsTest {

    /** Transaction {@code xid} with {@code rows} inserts on orders-0 from {@code offset} on, END at marker {@code xid}. */
    private static SourceTransaction tx(long xid, int rows, long offset) {
        List<ChangeRecord> records = new ArrayList<>();
        for (int i = 0; i < rows; i++) {
            records.add(insert(xid, 1, i + 1, orders(0), offset + i));
        }
        return new SourceTransaction(
                end(xid, 1, 0x100 * xid, records),
                xid,
                Map.of(orders(0), offset, MARKERS, xid),
                new InMemoryChanges(records, 100L * rows));
    }

    @Test
    void consecutiveTransactionsBecomeGroupsOfTheMaximumSizeInCommitOrder() {
        List<SourceTransaction> ready = List.of(tx(10, 2, 0), tx(11, 1, 2), tx(12, 3, 3), tx(13, 1, 6), tx(14, 2, 7));

        List<SourceTransaction> groups = new TransactionGroups(2, 100).group(ready);

        assertEquals(
                List.of(2, 2, 1),
                groups.stream().map(SourceTransaction::transactionCount).toList());
        SourceTransaction first = groups.get(0);
        assertEquals(11, first.xid(), "a group ends with its last transaction's END");
        assertEquals(10, first.firstXid());
        assertEquals(ready.get(1).endLsn(), first.endLsn());
        assertEquals(Map.of(orders(0), 0L, MARKERS, 10L), first.firstOffsets(), "the lowest offset per partition");
        assertEquals(3, first.changes().count());
        assertEquals(List.of(10L, 10L, 11L), xids(first.changes()), "each member's records in turn");
        assertEquals("2 transactions, xids 10…11 (end LSN " + first.endLsn() + ")", first.describe());
        assertSame(ready.get(4), groups.get(2), "a transaction alone is itself");
        assertEquals(
                "xid 14 (end LSN " + ready.get(4).endLsn() + ")", groups.get(2).describe());
    }

    @Test
    void aGroupClosesBeforeItWouldPassTheRowLimitAndABigTransactionStandsAlone() {
        List<SourceTransaction> ready = List.of(tx(10, 3, 0), tx(11, 3, 3), tx(12, 9, 6), tx(13, 1, 15));

        List<SourceTransaction> groups = new TransactionGroups(32, 6).group(ready);

        assertEquals(
                List.of(10L, 12L, 13L),
                groups.stream().map(SourceTransaction::firstXid).toList());
        assertEquals(
                List.of(2, 1, 1),
                groups.stream().map(SourceTransaction::transactionCount).toList());
    }

    @Test
    void aSpilledTransactionIsNeverGrouped() {
        SourceTransaction spilled =
                new SourceTransaction(end(11, 1, 0x200, List.of()), 11, Map.of(MARKERS, 11L), new SpilledStandIn());
        List<SourceTransaction> ready = List.of(tx(10, 1, 0), spilled, tx(12, 1, 1), tx(13, 1, 2));

        List<SourceTransaction> groups = new TransactionGroups(32, 100).group(ready);

        assertEquals(3, groups.size());
        assertSame(ready.get(0), groups.get(0));
        assertSame(spilled, groups.get(1));
        assertEquals(2, groups.get(2).transactionCount());
    }

    @Test
    void aSnapshotChunkStandsAloneSoThatItsEndIsItsGroupsAndItsRangeIsClearedInItsPlace() {
        List<SourceTransaction> ready =
                List.of(tx(10, 1, 0), chunk(tx(11, 3, 1), 0), chunk(tx(12, 3, 4), 1), tx(13, 1, 7), tx(14, 1, 8));

        List<SourceTransaction> groups = new TransactionGroups(32, 100).group(ready);

        assertEquals(
                List.of(10L, 11L, 12L, 14L),
                groups.stream().map(SourceTransaction::xid).toList());
        assertEquals(
                List.of(1, 1, 1, 2),
                groups.stream().map(SourceTransaction::transactionCount).toList());
        assertSame(ready.get(1), groups.get(1));
        assertSame(ready.get(2), groups.get(2));
    }

    /** {@code tx} as chunk {@code chunk} of a snapshot of public.orders. */
    private static SourceTransaction chunk(SourceTransaction tx, long chunk) {
        Marker.End end = tx.end();
        return new SourceTransaction(
                new Marker.End(
                        end.generation(),
                        end.xid(),
                        end.commitLsn(),
                        end.endLsn(),
                        end.commitTsUs(),
                        end.eventCount(),
                        end.dataCollections(),
                        new SnapshotChunk("s1", "public.orders", chunk, false, false)),
                tx.markerOffset(),
                tx.firstOffsets(),
                tx.changes());
    }

    @Test
    void oneTransactionPerGroupLeavesTheListAsItIs() {
        List<SourceTransaction> ready = List.of(tx(10, 1, 0), tx(11, 1, 1));
        assertSame(ready, new TransactionGroups(1, 100).group(ready));
    }

    @Test
    void closingAGroupClosesEveryMember() {
        List<SourceTransaction> ready = List.of(tx(10, 1, 0), tx(11, 1, 1));
        SourceTransaction group = new TransactionGroups(8, 100).group(ready).get(0);

        group.changes().close();

        assertThrows(IllegalStateException.class, () -> ready.get(1).changes().iterator());
    }

    private static List<Long> xids(TransactionChanges changes) {
        List<Long> xids = new ArrayList<>();
        changes.forEach(record -> xids.add(record.event().transaction().xid()));
        return xids;
    }

    /** A transaction whose records went to spill files: only {@code spilled()} matters here. */
    private static final class SpilledStandIn implements TransactionChanges {
        @Override
        public Iterator<ChangeRecord> iterator() {
            return List.<ChangeRecord>of().iterator();
        }

        @Override
        public long count() {
            return 50_000;
        }

        @Override
        public long sizeBytes() {
            return 1L << 30;
        }

        @Override
        public boolean spilled() {
            return true;
        }

        @Override
        public void close() {}
    }
}
