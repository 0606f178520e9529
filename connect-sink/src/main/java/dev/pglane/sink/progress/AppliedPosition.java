package dev.pglane.sink.progress;

import dev.pglane.wire.Lsn;

/**
 * The source position the target has applied up to: the last applied transaction's END.
 *
 * @param endLsn its commit end LSN; transactions ending at or before it are already applied
 * @param commitTsUs its source commit time, microseconds since the epoch
 * @param xid its source xid
 */
public record AppliedPosition(Lsn endLsn, long commitTsUs, long xid) {
    /** Nothing applied yet. */
    public static final AppliedPosition NONE = new AppliedPosition(Lsn.INVALID, 0L, 0L);

    /** True if a transaction ending at {@code transactionEndLsn} is already applied. */
    public boolean covers(Lsn transactionEndLsn) {
        return endLsn.isValid() && transactionEndLsn.compareTo(endLsn) <= 0;
    }
}
