package dev.pglane.source.pgoutput;

import dev.pglane.wire.Lsn;

/**
 * {@code 'A'}: a streamed transaction, or one of its subtransactions, aborted.
 *
 * @param xid the top-level transaction xid
 * @param subxid the aborted subtransaction, equal to {@code xid} when the whole transaction aborted
 * @param abortLsn the abort record's LSN; {@link Lsn#INVALID} when the server did not send it (it does only
 *     with protocol 4 and {@code streaming=parallel}) or sent 0 (abort found after a crash)
 * @param abortTimeMicros abort time, microseconds since the Unix epoch; 0 when not sent
 */
public record StreamAbortMessage(long xid, long subxid, Lsn abortLsn, long abortTimeMicros)
        implements PgOutputMessage {}
