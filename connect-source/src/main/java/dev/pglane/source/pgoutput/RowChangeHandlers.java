package dev.pglane.source.pgoutput;

import java.util.ArrayList;
import java.util.List;

/** Insert, Update, Delete and Truncate: the changes to table rows. */
final class RowChangeHandlers {

    /** Bits of Truncate's {@code Int8 options}. */
    private static final int TRUNCATE_CASCADE = 1;

    private static final int TRUNCATE_RESTART_IDENTITY = 2;

    private RowChangeHandlers() {}

    /** {@code xid?, Int32 relid, 'N', TupleData}. */
    static InsertMessage insert(MessageCursor in) {
        long xid = in.streamedXid();
        int relationId = in.int32("relid");
        expectTupleKind(in, "new tuple kind", "N");
        return new InsertMessage(xid, relationId, TupleReader.read(in, "new tuple"));
    }

    /** {@code xid?, Int32 relid, ['K' or 'O', TupleData], 'N', TupleData}. */
    static UpdateMessage update(MessageCursor in) {
        long xid = in.streamedXid();
        int relationId = in.int32("relid");
        char kind = expectTupleKind(in, "tuple kind", "KON");
        if (kind == 'N') {
            return new UpdateMessage(xid, relationId, '\0', null, TupleReader.read(in, "new tuple"));
        }
        TupleData oldTuple = TupleReader.read(in, "old tuple");
        expectTupleKind(in, "new tuple kind", "N");
        return new UpdateMessage(xid, relationId, kind, oldTuple, TupleReader.read(in, "new tuple"));
    }

    /** {@code xid?, Int32 relid, 'K' or 'O', TupleData}. */
    static DeleteMessage delete(MessageCursor in) {
        long xid = in.streamedXid();
        int relationId = in.int32("relid");
        char kind = expectTupleKind(in, "old tuple kind", "KO");
        return new DeleteMessage(xid, relationId, kind, TupleReader.read(in, "old tuple"));
    }

    /** {@code xid?, Int32 nrels, Int8 options, Int32 relid × nrels}. */
    static TruncateMessage truncate(MessageCursor in) {
        long xid = in.streamedXid();
        int count = in.count32("nrels");
        int options = in.int8("options");
        // Sized by what the message can hold, not by the count, so a corrupt count cannot allocate gigabytes.
        List<Integer> relationIds = new ArrayList<>(Math.min(count, in.remaining() / Integer.BYTES));
        for (int i = 0; i < count; i++) {
            relationIds.add(in.int32("relid[" + i + "]"));
        }
        return new TruncateMessage(
                xid, relationIds, (options & TRUNCATE_CASCADE) != 0, (options & TRUNCATE_RESTART_IDENTITY) != 0);
    }

    /** Reads the byte that introduces a tuple and checks it is one of {@code allowed}. */
    private static char expectTupleKind(MessageCursor in, String field, String allowed) {
        int offset = in.offset();
        byte kind = in.int8(field);
        if (allowed.indexOf(kind) < 0) {
            throw in.error(
                    field,
                    offset,
                    "unexpected tuple kind " + MessageTag.describeByte(kind) + " (expected one of "
                            + String.join(", ", allowed.split("")) + ")");
        }
        return (char) kind;
    }
}
