package dev.pglane.wire.envelope;

import dev.pglane.wire.WireFormatException;
import java.util.List;
import java.util.Map;
import org.apache.kafka.connect.data.Field;
import org.apache.kafka.connect.data.Struct;

/**
 * Which envelope fields each {@link Op} must, may and must not have. Kept apart from
 * {@link ChangeEvent} so the rules read as one table.
 *
 * <pre>
 * op  before    after     truncate  message  transaction
 * c   -         required  -         -        required
 * u   optional  required  -         -        required
 * d   required  -         -         -        required, but for a key move's delete (below)
 * r   -         required  -         -        required
 * t   -         -         required  -        required
 * m   -         -         -         required required if message.transactional
 * </pre>
 *
 * <p>A delete without a transaction block is a <em>key move's delete</em>: with changes keyed by row, it precedes an
 * update that moved a row to another key, so that consumers keeping one row per key drop the old key. It belongs
 * to no transaction's count; the update that follows does the move.
 */
final class OpRules {

    private OpRules() {}

    static void check(
            Op op,
            Struct before,
            Struct after,
            TransactionInfo transaction,
            TruncateInfo truncate,
            LogicalMessage message) {
        boolean beforeAllowed = op == Op.UPDATE || op == Op.DELETE;
        boolean afterRequired = op == Op.CREATE || op == Op.UPDATE || op == Op.READ;
        require(op, "before", before, op == Op.DELETE, beforeAllowed);
        require(op, "after", after, afterRequired, afterRequired);
        require(op, "truncate", truncate, op == Op.TRUNCATE, op == Op.TRUNCATE);
        require(op, "message", message, op == Op.MESSAGE, op == Op.MESSAGE);
        boolean outsideTransaction = message != null && !message.transactional();
        require(op, "transaction", transaction, !outsideTransaction && op != Op.DELETE, !outsideTransaction);
    }

    static void checkUnchangedToast(Op op, Struct after, List<String> columns) {
        if (columns.isEmpty()) {
            return;
        }
        if (op != Op.UPDATE) {
            throw WireFormatException.forField(
                    "envelope", "unchanged_toast", columns, "only an update (op u) can have unchanged TOAST values");
        }
        for (String column : columns) {
            checkNullColumn(after, RowImage.AFTER, column, "unchanged_toast");
        }
    }

    static void checkTextValues(Struct before, Struct after, Map<String, String> textValues) {
        for (String key : textValues.keySet()) {
            if (key.startsWith("before.")) {
                checkNullColumn(before, RowImage.BEFORE, key.substring("before.".length()), "text_values");
            } else if (key.startsWith("after.")) {
                checkNullColumn(after, RowImage.AFTER, key.substring("after.".length()), "text_values");
            } else {
                throw WireFormatException.forField(
                        "envelope", "text_values", key, "key must be before.<column> or after.<column>");
            }
        }
    }

    private static void checkNullColumn(Struct row, RowImage image, String column, String field) {
        if (row == null) {
            throw WireFormatException.forField(
                    "envelope",
                    field,
                    image.textValueKey(column),
                    "names a column of " + image.field() + ", which is absent");
        }
        Field declared = row.schema().field(column);
        if (declared == null) {
            throw WireFormatException.forField(
                    "envelope",
                    field,
                    column,
                    "is not a column of " + image.field() + " (" + row.schema().name() + ")");
        }
        if (row.get(declared) != null) {
            throw WireFormatException.forField(
                    "envelope", field, column, "the column's typed field in " + image.field() + " must be null");
        }
    }

    private static void require(Op op, String field, Object value, boolean required, boolean allowed) {
        if (value == null && required) {
            throw WireFormatException.forField(
                    "envelope", field, null, "required for op '" + op.code() + "' but missing");
        }
        if (value != null && !allowed) {
            throw WireFormatException.forField("envelope", field, value, "not allowed for op '" + op.code() + "'");
        }
    }
}
