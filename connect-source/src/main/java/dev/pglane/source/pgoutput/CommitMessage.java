package dev.pglane.source.pgoutput;

import dev.pglane.wire.Lsn;

/**
 * {@code 'C'}: a non-streamed transaction ends.
 *
 * @param flags currently always 0
 * @param commitLsn the start of the commit record
 * @param endLsn the end of the commit record: the only safe position to confirm to the slot
 * @param commitTimeMicros commit time, microseconds since the Unix epoch
 */
public record CommitMessage(int flags, Lsn commitLsn, Lsn endLsn, long commitTimeMicros) implements PgOutputMessage {}
