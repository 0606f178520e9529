package dev.pglane.local.kafka;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.pglane.wire.Lsn;
import dev.pglane.wire.envelope.ChangeEvent;
import dev.pglane.wire.envelope.Op;
import dev.pglane.wire.envelope.SourceInfo;
import dev.pglane.wire.envelope.Timestamps;
import dev.pglane.wire.envelope.TransactionInfo;
import dev.pglane.wire.marker.DataCollectionCount;
import dev.pglane.wire.marker.Marker;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.apache.kafka.connect.data.Schema;
import org.apache.kafka.connect.data.SchemaBuilder;
import org.apache.kafka.connect.data.Struct;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

/**
 * The discard rule on hand-built arrival sequences: records of one transaction spread over partitions that lag each
 * other and the marker topic, copies cut off by a restart, aborted subtransactions and redeliveries.
 */
class TransactionRebuilderTest {
    private static final String PREFIX = "shop";
    private static final String MARKERS = PREFIX + ".transactions";
    private static final Schema ROW = SchemaBuilder.struct()
            .name("shop.public.t.Value")
            .optional()
            .field("id", Schema.OPTIONAL_INT32_SCHEMA)
            .build();

    private final TransactionRebuilder rebuilder = new TransactionRebuilder();
    private final Map<String, Long> offsets = new HashMap<>();

    @Test
    @DisplayName("interleaved transactions on two tables come out whole, in END order, each in total_order")
    void interleavedPartitions() {
        ChangeEvent a1 = insert(100, 1, "orders", 1, null, 1);
        ChangeEvent b1 = insert(200, 1, "items", 1, null, 10);
        ChangeEvent a2 = insert(100, 1, "items", 2, null, 2);
        ChangeEvent b2 = insert(200, 1, "orders", 2, null, 11);
        // the marker topic runs ahead: both ENDs (200 committed first) before any data
        feed(end(200, 1, 0x200, "public.items", 1, "public.orders", 1));
        feed(end(100, 1, 0x300, "public.orders", 1, "public.items", 1));
        feed(change(a2), change(b2));
        assertEquals(0, rebuilder.committedCount(), "200 still misses its items record");
        feed(change(b1));
        assertEquals(1, rebuilder.committedCount(), "100 still misses its orders record");
        feed(change(a1));

        List<CommittedTransaction> out = rebuilder.committed();
        assertEquals(
                List.of(200L, 100L), out.stream().map(CommittedTransaction::xid).toList());
        assertEquals(List.of(b1, b2), out.get(0).changes());
        assertEquals(List.of(a1, a2), out.get(1).changes());
    }

    @Test
    @DisplayName("a complete transaction waits behind an earlier END whose records are still in flight")
    void releasesInEndOrderOnly() {
        feed(end(100, 1, 0x100, "public.t", 2), end(200, 1, 0x200, "public.t", 1));
        feed(change(insert(200, 1, "t", 1, null, 5)), change(insert(100, 1, "t", 1, null, 1)));
        assertEquals(0, rebuilder.committedCount());

        feed(change(insert(100, 1, "t", 2, null, 2)));

        assertEquals(
                List.of(100L, 200L),
                rebuilder.committed().stream().map(CommittedTransaction::xid).toList());
    }

    @Test
    @DisplayName("START drops an earlier generation's partial copy, also its records that arrive later")
    void staleCopyAfterRestart() {
        feed(start(1), change(insert(100, 1, "t", 1, null, 1)));
        feed(start(2));
        feed(change(insert(100, 1, "t", 2, null, 2))); // late record of the cut-off copy
        List<ChangeEvent> resent = List.of(insert(100, 2, "t", 1, null, 1), insert(100, 2, "t", 2, null, 2));
        feed(change(resent.get(0)), change(resent.get(1)), end(100, 2, 0x100, "public.t", 2));

        assertEquals(1, rebuilder.committedCount());
        CommittedTransaction tx = rebuilder.committed().get(0);
        assertEquals(2, tx.generation());
        assertEquals(resent, tx.changes());
        assertEquals(1, rebuilder.staleCopiesDropped());
    }

    @Test
    @DisplayName("records of a later generation that arrive before its START are kept")
    void dataAheadOfStart() {
        feed(start(1), change(insert(100, 1, "t", 1, null, 1)));
        ChangeEvent resent = insert(100, 2, "t", 1, null, 1);
        feed(change(resent));
        feed(start(2), end(100, 2, 0x100, "public.t", 1));

        assertEquals(List.of(resent), rebuilder.committed().get(0).changes());
    }

    @Test
    @DisplayName("a copy whose END came before the restart stays valid, and the re-sent copy is skipped as a duplicate")
    void duplicateAcrossGenerations() {
        feed(start(1), end(100, 1, 0x100, "public.t", 1), start(2));
        feed(change(insert(100, 1, "t", 1, null, 1))); // arrives after START(2) but its copy ended before it
        feed(change(insert(100, 2, "t", 1, null, 1)), end(100, 2, 0x100, "public.t", 1));
        feed(change(insert(300, 2, "t", 1, null, 3)), end(300, 2, 0x300, "public.t", 1));

        assertEquals(
                List.of(1L, 2L),
                rebuilder.committed().stream()
                        .map(CommittedTransaction::generation)
                        .toList());
        assertEquals(
                List.of(100L, 300L),
                rebuilder.committed().stream().map(CommittedTransaction::xid).toList());
        assertEquals(1, rebuilder.duplicatesSkipped());
    }

    @Test
    @DisplayName("ABORT of a subtransaction removes its records, before and after the marker; END counts the rest")
    void subtransactionAbort() {
        ChangeEvent top1 = insert(100, 1, "t", 1, 100L, 1);
        ChangeEvent sub = insert(100, 1, "t", 2, 101L, 2);
        ChangeEvent subLate = insert(100, 1, "t", 3, 101L, 3);
        ChangeEvent top2 = insert(100, 1, "t", 4, 100L, 4);
        feed(change(top1), change(sub), abort(100, 101, 1), change(subLate), change(top2));
        feed(end(100, 1, 0x100, "public.t", 2));

        assertEquals(List.of(top1, top2), rebuilder.committed().get(0).changes());
    }

    @Test
    @DisplayName("ABORT of the whole transaction yields nothing, and later records of it are ignored")
    void topLevelAbort() {
        feed(change(insert(100, 1, "t", 1, 100L, 1)), abort(100, 100, 1), change(insert(100, 1, "t", 2, 100L, 2)));
        feed(change(insert(200, 1, "t", 1, null, 9)), end(200, 1, 0x200, "public.t", 1));

        assertEquals(
                List.of(200L),
                rebuilder.committed().stream().map(CommittedTransaction::xid).toList());
        assertEquals(1, rebuilder.aborts().size());
    }

    @Test
    @DisplayName("a redelivered record counts once; a different record at the same total_order is an error")
    void redeliveredRecords() {
        ChangeEvent first = insert(100, 1, "t", 1, null, 1);
        feed(change(first), change(first), end(100, 1, 0x100, "public.t", 1));
        feed(change(first));
        assertEquals(List.of(first), rebuilder.committed().get(0).changes());

        feed(change(insert(200, 1, "t", 1, null, 1)));
        WireRecord clash = change(insert(200, 1, "t", 1, null, 2));
        assertThrows(IllegalStateException.class, () -> rebuilder.accept(clash));
    }

    @Test
    @DisplayName("more records of a table than END announced is an error, not a silent release")
    void surplusRecords() {
        feed(change(insert(100, 1, "t", 1, null, 1)), change(insert(100, 1, "t", 2, null, 2)));
        WireRecord end = end(100, 1, 0x100, "public.t", 1);

        IllegalStateException e = assertThrows(IllegalStateException.class, () -> rebuilder.accept(end));
        assertTrue(e.getMessage().contains("2 records of public.t"), e.getMessage());
    }

    @Test
    @DisplayName("an END with no records releases an empty transaction")
    void emptyTransaction() {
        feed(end(100, 1, 0x100));

        assertEquals(List.of(), rebuilder.committed().get(0).changes());
    }

    private void feed(WireRecord... records) {
        for (WireRecord record : records) {
            rebuilder.accept(record);
        }
    }

    private WireRecord change(ChangeEvent event) {
        String topic = PREFIX + ".public." + event.source().table();
        return new WireRecord.Change(
                topic, 0, nextOffset(topic), event.transaction().xid(), event);
    }

    private long nextOffset(String topic) {
        return offsets.merge(topic, 1L, Long::sum) - 1;
    }

    private WireRecord marker(Marker marker) {
        return new WireRecord.MarkerRecord(MARKERS, 0, nextOffset(MARKERS), marker);
    }

    private WireRecord start(long generation) {
        return marker(new Marker.Start(generation, 0, Lsn.valueOf(0x10)));
    }

    private WireRecord abort(long xid, long subxid, long generation) {
        return marker(new Marker.Abort(generation, 0, xid, subxid, Lsn.valueOf(0x50)));
    }

    /** END of (xid, generation) at {@code endLsn}; {@code counts} alternates data collection and count. */
    private WireRecord end(long xid, long generation, long endLsn, Object... counts) {
        Map<String, Long> byCollection = new LinkedHashMap<>();
        for (int i = 0; i < counts.length; i += 2) {
            byCollection.put((String) counts[i], ((Integer) counts[i + 1]).longValue());
        }
        List<DataCollectionCount> collections = new ArrayList<>();
        byCollection.forEach((collection, count) ->
                collections.add(new DataCollectionCount(collection, count, PREFIX + "." + collection)));
        long total = byCollection.values().stream().mapToLong(Long::longValue).sum();
        return marker(new Marker.End(
                generation, xid, Lsn.valueOf(endLsn - 8), Lsn.valueOf(endLsn), 1_000_000L, total, collections));
    }

    /** An insert of {@code id} into {@code public.<table>}, at {@code totalOrder} of (xid, generation). */
    private static ChangeEvent insert(long xid, long generation, String table, long totalOrder, Long subxid, int id) {
        SourceInfo source = new SourceInfo(
                "test",
                PREFIX,
                "db",
                "public",
                table,
                Timestamps.ofMicros(1_000_000L),
                null,
                null,
                xid,
                Lsn.valueOf(0x1000 + totalOrder),
                null);
        TransactionInfo transaction = new TransactionInfo(xid, totalOrder, 1, subxid, generation);
        return ChangeEvent.builder(Op.CREATE, source, transaction)
                .after(new Struct(ROW).put("id", id))
                .build();
    }
}
