package dev.pglane.source.pgoutput;

/**
 * {@code 'U'}: a row was updated.
 *
 * @param xid the streamed (sub)transaction xid, or 0 outside a stream
 * @param relationId the relation OID
 * @param oldTupleKind {@code 'K'} (old key, the key changed) or {@code 'O'} (whole old row, REPLICA IDENTITY
 *     FULL) when {@code oldTuple} is present, {@code '\0'} when it is not
 * @param oldTuple the old key or row, or {@code null}
 * @param newTuple the new row; {@code 'u'} columns are unchanged TOAST values
 */
public record UpdateMessage(long xid, int relationId, char oldTupleKind, TupleData oldTuple, TupleData newTuple)
        implements PgOutputMessage {}
