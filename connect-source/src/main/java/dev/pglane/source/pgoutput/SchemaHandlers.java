package dev.pglane.source.pgoutput;

import java.util.ArrayList;
import java.util.List;

/** Relation and Type: the schema descriptions that precede the row changes using them. */
final class SchemaHandlers {

    /** Bit 0 of a Relation column's flags: the column is part of the replica identity. */
    private static final int KEY_FLAG = 1;

    private SchemaHandlers() {}

    /**
     * {@code xid?, Int32 relid, String nspname, String relname, Int8 relreplident, Int16 ncols}, then per column
     * {@code Int8 flags, String name, Int32 typoid, Int32 atttypmod}.
     */
    static RelationMessage relation(MessageCursor in) {
        long xid = in.streamedXid();
        int relationId = in.int32("relid");
        String namespace = in.string("nspname");
        String name = in.string("relname");
        char identity = replicaIdentity(in);
        int count = in.count16("ncols");
        List<RelationColumn> columns = new ArrayList<>(count);
        for (int i = 0; i < count; i++) {
            String field = "column[" + i + "]";
            boolean key = (in.int8(field + ".flags") & KEY_FLAG) != 0;
            String columnName = in.string(field + ".name");
            int typeOid = in.int32(field + ".typoid");
            columns.add(new RelationColumn(columnName, typeOid, in.int32(field + ".atttypmod"), key));
        }
        return new RelationMessage(xid, relationId, namespace, name, identity, columns);
    }

    /** {@code xid?, Int32 typoid, String nspname, String typname}. */
    static TypeMessage type(MessageCursor in) {
        long xid = in.streamedXid();
        int typeOid = in.int32("typoid");
        String namespace = in.string("nspname");
        return new TypeMessage(xid, typeOid, namespace, in.string("typname"));
    }

    /** {@code d} default, {@code n} nothing, {@code f} full, {@code i} index: {@code pg_class.relreplident}. */
    private static char replicaIdentity(MessageCursor in) {
        int offset = in.offset();
        byte identity = in.int8("relreplident");
        return switch (identity) {
            case 'd', 'n', 'f', 'i' -> (char) identity;
            default ->
                throw in.error(
                        "relreplident",
                        offset,
                        "unknown replica identity " + MessageTag.describeByte(identity) + " (expected d, n, f or i)");
        };
    }
}
