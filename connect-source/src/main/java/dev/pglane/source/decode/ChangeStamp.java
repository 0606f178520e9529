package dev.pglane.source.decode;

import dev.pglane.wire.Lsn;
import dev.pglane.wire.envelope.TransactionInfo;

/**
 * Where a record sits in the stream, as the reader counted it: the values a lane needs for the
 * envelope's {@code source} and {@code transaction} blocks, fixed before the lane sees the item.
 *
 * @param xid the top-level transaction, or 0 for a message outside any transaction
 * @param subxid the (sub)transaction xid a streamed change carried, {@code null} when not streamed
 * @param ordinal the record's {@code total_order} in its transaction, 0 outside any transaction
 * @param dataCollectionOrder its position among the transaction's records of the same table
 * @param lsn the WAL position of the change
 * @param timeMicros commit time, or the receive time for changes streamed before their commit
 * @param lastCommitLsn commit LSN of the previously committed transaction ({@code source.sequence}), or null
 * @param generation the session that emits the record
 */
public record ChangeStamp(
        long xid,
        Long subxid,
        long ordinal,
        long dataCollectionOrder,
        Lsn lsn,
        long timeMicros,
        Lsn lastCommitLsn,
        long generation) {

    /** The envelope's {@code transaction} block; {@code null} outside any transaction. */
    public TransactionInfo transaction() {
        return ordinal == 0 ? null : new TransactionInfo(xid, ordinal, dataCollectionOrder, subxid, generation);
    }
}
