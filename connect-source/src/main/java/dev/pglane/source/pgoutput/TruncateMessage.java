package dev.pglane.source.pgoutput;

import java.util.List;

/**
 * {@code 'T'}: one TRUNCATE statement, covering every published relation it emptied.
 *
 * @param xid the streamed (sub)transaction xid, or 0 outside a stream
 * @param relationIds the truncated relation OIDs
 * @param cascade TRUNCATE ... CASCADE
 * @param restartIdentity TRUNCATE ... RESTART IDENTITY
 */
public record TruncateMessage(long xid, List<Integer> relationIds, boolean cascade, boolean restartIdentity)
        implements PgOutputMessage {

    public TruncateMessage {
        relationIds = List.copyOf(relationIds);
    }
}
