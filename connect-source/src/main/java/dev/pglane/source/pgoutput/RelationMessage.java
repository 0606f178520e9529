package dev.pglane.source.pgoutput;

import java.util.List;

/**
 * {@code 'R'}: the shape of a relation, sent before its first change and after each schema change.
 *
 * @param xid the streamed (sub)transaction xid, or 0 outside a stream
 * @param relationId the relation OID that later row messages refer to
 * @param namespace the schema name; {@code ""} means {@code pg_catalog}, as sent
 * @param relationName the table name
 * @param replicaIdentity {@code d} default, {@code n} nothing, {@code f} full, {@code i} index
 * @param columns the published columns in wire order
 */
public record RelationMessage(
        long xid,
        int relationId,
        String namespace,
        String relationName,
        char replicaIdentity,
        List<RelationColumn> columns)
        implements PgOutputMessage {

    public RelationMessage {
        columns = List.copyOf(columns);
    }

    /** The same description, scoped to the streamed transaction {@code streamXid}, as one inside its chunk is. */
    public RelationMessage scopedTo(long streamXid) {
        return new RelationMessage(streamXid, relationId, namespace, relationName, replicaIdentity, columns);
    }
}
