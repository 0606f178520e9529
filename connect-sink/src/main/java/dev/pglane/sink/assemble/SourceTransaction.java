package dev.pglane.sink.assemble;

import dev.pglane.wire.Lsn;
import dev.pglane.wire.marker.Marker;
import java.util.Map;
import org.apache.kafka.common.TopicPartition;

/**
 * A complete source transaction, released by the assembler in marker (commit) order.
 *
 * @param end its END marker (xid, generation, commit and end LSN, commit time, counts)
 * @param markerOffset the END marker's offset on the marker topic
 * @param firstOffsets per partition, the lowest offset of this copy's records (and of its END on the
 *     marker partition): consumer offsets may not pass these until the transaction is durable
 * @param changes the records to apply, in {@code total_order}
 */
public record SourceTransaction(
        Marker.End end, long markerOffset, Map<TopicPartition, Long> firstOffsets, TransactionChanges changes) {

    public SourceTransaction {
        firstOffsets = Map.copyOf(firstOffsets);
    }

    public long xid() {
        return end.xid();
    }

    public Lsn endLsn() {
        return end.endLsn();
    }

    /** {@code xid 571 (end LSN 0/32B4A08)}, the way errors and logs name a transaction. */
    public String describe() {
        return "xid " + end.xid() + " (end LSN " + end.endLsn() + ")";
    }
}
