package dev.pglane.source.pgoutput;

/**
 * {@code 'D'}: a row was deleted.
 *
 * @param xid the streamed (sub)transaction xid, or 0 outside a stream
 * @param relationId the relation OID
 * @param oldTupleKind {@code 'K'} (key columns set, the others null) or {@code 'O'} (whole old row)
 * @param oldTuple the old key or row
 */
public record DeleteMessage(long xid, int relationId, char oldTupleKind, TupleData oldTuple)
        implements PgOutputMessage {}
