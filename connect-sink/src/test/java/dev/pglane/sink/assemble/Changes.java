package dev.pglane.sink.assemble;

import dev.pglane.wire.Lsn;
import dev.pglane.wire.envelope.ChangeEvent;
import dev.pglane.wire.envelope.EnvelopeSamples;
import dev.pglane.wire.envelope.LogicalMessage;
import dev.pglane.wire.envelope.Op;
import dev.pglane.wire.envelope.SourceInfo;
import dev.pglane.wire.envelope.Timestamps;
import dev.pglane.wire.envelope.TransactionInfo;
import dev.pglane.wire.marker.DataCollectionCount;
import dev.pglane.wire.marker.Marker;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.apache.kafka.common.TopicPartition;

/** Change records and markers of the example table {@code shop.public.orders}, for assembler tests. */
final class Changes {
    static final String ORDERS = "shop.public.orders";
    static final String ITEMS = "shop.public.items";
    static final String MESSAGES = "shop.messages";
    static final TopicPartition MARKERS = new TopicPartition("shop.transactions", 0);

    private Changes() {}

    /** An insert of row {@code id = totalOrder} in copy (xid, generation), delivered at {@code partition@offset}. */
    static ChangeRecord insert(
            long xid, long generation, long totalOrder, Long subxid, TopicPartition partition, long offset) {
        TransactionInfo transaction = new TransactionInfo(xid, totalOrder, totalOrder, subxid, generation);
        ChangeEvent event = ChangeEvent.builder(Op.CREATE, source(xid), transaction)
                .after(EnvelopeSamples.row((int) totalOrder, "1.50", "row " + totalOrder))
                .processingTime(Timestamps.ofMicros(1_700_000_001_000_001L))
                .build();
        return new ChangeRecord(partition, offset, event, TransactionAssembler.estimateSize(event));
    }

    static ChangeRecord insert(long xid, long generation, long totalOrder, TopicPartition partition, long offset) {
        return insert(xid, generation, totalOrder, null, partition, offset);
    }

    /** A transactional logical decoding message. */
    static ChangeRecord message(long xid, long generation, long totalOrder, TopicPartition partition, long offset) {
        TransactionInfo transaction = new TransactionInfo(xid, totalOrder, totalOrder, null, generation);
        ChangeEvent event = ChangeEvent.builder(Op.MESSAGE, messageSource(xid), transaction)
                .message(new LogicalMessage("audit", "hello".getBytes(StandardCharsets.UTF_8), true))
                .build();
        return new ChangeRecord(partition, offset, event, 100);
    }

    static SourceInfo source(long xid) {
        return EnvelopeSamples.source(xid, Lsn.parse("1/A0"));
    }

    static SourceInfo messageSource(long xid) {
        return new SourceInfo(
                "0.1.0",
                "shop",
                "inventory",
                "",
                "",
                Timestamps.ofMicros(1_700_000_000_000_000L),
                null,
                null,
                xid,
                Lsn.parse("1/B0"),
                null);
    }

    /** END of (xid, generation) at {@code endLsn}, counting the given records per topic. */
    static Marker.End end(long xid, long generation, long endLsn, List<ChangeRecord> records) {
        Map<String, Long> perTopic = new TreeMap<>();
        records.forEach(record -> perTopic.merge(record.partition().topic(), 1L, Long::sum));
        List<DataCollectionCount> collections = new ArrayList<>();
        perTopic.forEach((topic, count) -> collections.add(new DataCollectionCount(topic.substring(5), count, topic)));
        return new Marker.End(
                generation,
                xid,
                Lsn.valueOf(endLsn - 8),
                Lsn.valueOf(endLsn),
                1_700_000_000_000_000L,
                perTopic.values().stream().mapToLong(Long::longValue).sum(),
                collections);
    }

    static Marker.Start start(long generation) {
        return new Marker.Start(generation, 1_700_000_003_000L, Lsn.parse("0/10"));
    }

    static Marker.Abort abort(long xid, long subxid, long generation) {
        return new Marker.Abort(generation, 1_700_000_002_000L, xid, subxid, Lsn.parse("0/20"));
    }

    static TopicPartition orders(int partition) {
        return new TopicPartition(ORDERS, partition);
    }

    static TopicPartition items() {
        return new TopicPartition(ITEMS, 0);
    }

    /** The {@code total_order} values of a released transaction, in iteration order. */
    static List<Long> orders(SourceTransaction transaction) {
        List<Long> orders = new ArrayList<>();
        transaction
                .changes()
                .forEach(record -> orders.add(record.event().transaction().totalOrder()));
        return orders;
    }
}
