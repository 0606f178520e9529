package dev.pglane.source.pgoutput;

/**
 * {@code 'I'}: a row was inserted.
 *
 * @param xid the streamed (sub)transaction xid, or 0 outside a stream
 * @param relationId the relation OID
 * @param newTuple the inserted row
 */
public record InsertMessage(long xid, int relationId, TupleData newTuple) implements PgOutputMessage {}
