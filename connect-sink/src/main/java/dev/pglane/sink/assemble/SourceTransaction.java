package dev.pglane.sink.assemble;

import dev.pglane.wire.Lsn;
import dev.pglane.wire.marker.Marker;
import java.util.Map;
import org.apache.kafka.common.TopicPartition;

/**
 * A complete source transaction, released by the assembler in marker (commit) order, or several
 * consecutive ones applied as one target transaction ({@link TransactionGroups}).
 *
 * @param end its END marker (xid, generation, commit and end LSN, commit time, counts)
 * @param markerOffset the END marker's offset on the marker topic
 * @param firstOffsets per partition, the lowest offset of this copy's records (and of its END on the
 *     marker partition): consumer offsets may not pass these until the transaction is durable
 * @param changes the records to apply, in {@code total_order}
 * @param firstXid the xid of the first transaction of a group; {@code end}'s xid for one transaction
 * @param transactionCount how many source transactions this is: 1, or a group's size
 */
public record SourceTransaction(
        Marker.End end,
        long markerOffset,
        Map<TopicPartition, Long> firstOffsets,
        TransactionChanges changes,
        long firstXid,
        int transactionCount) {

    public SourceTransaction {
        firstOffsets = Map.copyOf(firstOffsets);
        if (transactionCount < 1) {
            throw new IllegalArgumentException("a transaction group needs a transaction: " + transactionCount);
        }
    }

    /** One source transaction. */
    public SourceTransaction(
            Marker.End end, long markerOffset, Map<TopicPartition, Long> firstOffsets, TransactionChanges changes) {
        this(end, markerOffset, firstOffsets, changes, end.xid(), 1);
    }

    public long xid() {
        return end.xid();
    }

    public Lsn endLsn() {
        return end.endLsn();
    }

    /**
     * {@code xid 571 (end LSN 0/32B4A08)}, or for a group {@code 12 transactions, xids 560…571 (end LSN
     * 0/32B4A08)}: the way errors and logs name what was applied. Records name their own xid.
     */
    public String describe() {
        String xids = transactionCount == 1
                ? "xid " + end.xid()
                : transactionCount + " transactions, xids " + firstXid + "…" + end.xid();
        return xids + " (end LSN " + end.endLsn() + ")";
    }
}
