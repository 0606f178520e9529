package dev.pglane.sink.progress;

import dev.pglane.wire.Lsn;

/**
 * The source position the target has applied up to: the last applied transaction's END.
 *
 * @param endLsn its commit end LSN; transactions ending at or before it are already applied
 * @param commitTsUs its source commit time, microseconds since the epoch
 * @param xid its source xid
 * @param source the server it came from, as far as the progress store records it
 */
public record AppliedPosition(Lsn endLsn, long commitTsUs, long xid, SourceIdentity source) {
    /** Nothing applied yet. */
    public static final AppliedPosition NONE = new AppliedPosition(Lsn.INVALID, 0L, 0L);

    /** A position whose source server is not recorded. */
    public AppliedPosition(Lsn endLsn, long commitTsUs, long xid) {
        this(endLsn, commitTsUs, xid, SourceIdentity.UNKNOWN);
    }

    public AppliedPosition withSource(SourceIdentity server) {
        return new AppliedPosition(endLsn, commitTsUs, xid, server);
    }

    /** True if a transaction ending at {@code transactionEndLsn} is already applied. */
    public boolean covers(Lsn transactionEndLsn) {
        return endLsn.isValid() && transactionEndLsn.compareTo(endLsn) <= 0;
    }
}
