package dev.pglane.source.pgoutput;

import dev.pglane.wire.Lsn;

/**
 * {@code 'c'}: a streamed transaction committed.
 *
 * @param xid the top-level transaction xid
 * @param flags currently always 0
 * @param commitLsn the start of the commit record
 * @param endLsn the end of the commit record: the only safe position to confirm to the slot
 * @param commitTimeMicros commit time, microseconds since the Unix epoch
 */
public record StreamCommitMessage(long xid, int flags, Lsn commitLsn, Lsn endLsn, long commitTimeMicros)
        implements PgOutputMessage {}
