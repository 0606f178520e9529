package dev.pglane.source.pgoutput;

import dev.pglane.wire.Lsn;

/**
 * {@code 'B'}: a non-streamed transaction starts.
 *
 * @param finalLsn the start of the commit record, equal to the matching {@link CommitMessage#commitLsn()}
 * @param commitTimeMicros commit time, microseconds since the Unix epoch
 * @param xid the top-level transaction id (unsigned)
 */
public record BeginMessage(Lsn finalLsn, long commitTimeMicros, long xid) implements PgOutputMessage {}
