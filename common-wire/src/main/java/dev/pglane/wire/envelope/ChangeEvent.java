package dev.pglane.wire.envelope;

import dev.pglane.wire.WireFormatException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import org.apache.kafka.connect.data.Struct;

/**
 * One change record's value: the Java side of the envelope that {@link ChangeEnvelope} encodes.
 *
 * <p>The constructor enforces which fields each {@link Op} has, so an impossible combination fails
 * where it is made (in the source) or read (in the sink), never later while applying it.
 *
 * @param before the old row (op {@code u} when sent, op {@code d}), else {@code null}
 * @param after the new row (ops {@code c}, {@code u}, {@code r}), else {@code null}
 * @param processingTime when the connector emitted the record ({@code ts_*}), or {@code null}
 * @param unchangedToast columns of {@code after} holding an unchanged TOASTed value PostgreSQL did not
 *     send: the field is null and a consumer must keep the existing value, never write null
 * @param textValues PostgreSQL text of values the typed field cannot hold, keyed
 *     {@code before.<column>} or {@code after.<column>}; the typed field is null
 * @param truncate the TRUNCATE options for op {@code t}, else {@code null}
 * @param message the logical decoding message for op {@code m}, else {@code null}
 * @param pendingSnapshot the table's snapshot had not finished when the source sent this change: the target may
 *     not hold the row yet (a later snapshot chunk brings it), so a consumer applies an update of a missing row as
 *     an insert of its new row, or leaves it to the chunk when TOAST values are missing, and a delete of a missing
 *     row as nothing
 */
public record ChangeEvent(
        Op op,
        Struct before,
        Struct after,
        SourceInfo source,
        TransactionInfo transaction,
        Timestamps processingTime,
        List<String> unchangedToast,
        Map<String, String> textValues,
        TruncateInfo truncate,
        LogicalMessage message,
        boolean pendingSnapshot) {

    public ChangeEvent {
        if (op == null) {
            throw WireFormatException.forField("envelope", "op", null, "required field is missing");
        }
        if (source == null) {
            throw WireFormatException.forField("envelope", "source", null, "required field is missing");
        }
        unchangedToast = unchangedToast == null ? List.of() : List.copyOf(unchangedToast);
        textValues = textValues == null ? Map.of() : Map.copyOf(textValues);
        OpRules.check(op, before, after, transaction, truncate, message);
        OpRules.checkUnchangedToast(op, after, unchangedToast);
        OpRules.checkTextValues(before, after, textValues);
    }

    /**
     * A key move's delete: written, with changes keyed by row, before an update that moved a row to another key, for
     * consumers that keep one row per key. It is in no transaction's count, and a consumer that applies the update
     * that follows must not apply it.
     */
    public boolean isKeyMoveDelete() {
        return op == Op.DELETE && transaction == null;
    }

    /**
     * Starts a record of {@code op}; {@code transaction} may be null only for non-transactional messages and a key
     * move's delete.
     */
    public static Builder builder(Op op, SourceInfo source, TransactionInfo transaction) {
        return new Builder(op, source, transaction);
    }

    /** Assembles a {@link ChangeEvent}; validation happens in {@link #build()}. */
    public static final class Builder {
        private final Op op;
        private final SourceInfo source;
        private final TransactionInfo transaction;
        private Struct before;
        private Struct after;
        private Timestamps processingTime;
        private final List<String> unchangedToast = new ArrayList<>();
        private final Map<String, String> textValues = new LinkedHashMap<>();
        private TruncateInfo truncate;
        private LogicalMessage message;
        private boolean pendingSnapshot;

        private Builder(Op op, SourceInfo source, TransactionInfo transaction) {
            this.op = op;
            this.source = source;
            this.transaction = transaction;
        }

        public Builder before(Struct row) {
            this.before = row;
            return this;
        }

        public Builder after(Struct row) {
            this.after = row;
            return this;
        }

        public Builder processingTime(Timestamps time) {
            this.processingTime = time;
            return this;
        }

        /** Marks {@code column} of {@code after} as an unchanged TOAST value (its field stays null). */
        public Builder unchangedToast(String column) {
            unchangedToast.add(Objects.requireNonNull(column, "column"));
            return this;
        }

        /** Carries {@code text} for a value the column's typed field cannot represent. */
        public Builder textValue(RowImage image, String column, String text) {
            textValues.put(image.textValueKey(column), Objects.requireNonNull(text, "text"));
            return this;
        }

        public Builder truncate(TruncateInfo options) {
            this.truncate = options;
            return this;
        }

        public Builder message(LogicalMessage logicalMessage) {
            this.message = logicalMessage;
            return this;
        }

        /** Marks a change of a table whose snapshot has not finished. */
        public Builder pendingSnapshot(boolean pending) {
            this.pendingSnapshot = pending;
            return this;
        }

        /**
         * @throws WireFormatException if the fields do not fit the op
         */
        public ChangeEvent build() {
            return new ChangeEvent(
                    op,
                    before,
                    after,
                    source,
                    transaction,
                    processingTime,
                    unchangedToast,
                    textValues,
                    truncate,
                    message,
                    pendingSnapshot);
        }
    }
}
