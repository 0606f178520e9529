package dev.pglane.source.values;

import dev.pglane.source.pgoutput.TupleData;
import dev.pglane.wire.envelope.RowImage;
import dev.pglane.wire.types.Column;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.apache.kafka.connect.data.Field;
import org.apache.kafka.connect.data.Schema;
import org.apache.kafka.connect.data.Struct;

/**
 * Turns a pgoutput tuple of one relation version into its row struct. Built once per relation descriptor with one
 * decoder per column; immutable, so decoder lanes share it without locking.
 *
 * <p>Per column kind: {@code 'n'} → null; {@code 'u'} (unchanged TOAST) → null and listed in
 * {@link DecodedRow#unchangedToast()}; {@code 't'} → the column's decoder; {@code 'b'} → an error, since pglane
 * never asks for binary tuples.
 */
public final class RowDecoder {

    private final String relation;
    private final Schema rowSchema;
    private final List<Column> columns;
    private final Field[] fields;
    private final TextDecoder[] decoders;

    private RowDecoder(String relation, Schema rowSchema, List<Column> columns, List<ColumnTreatment> treatments) {
        this.relation = relation;
        this.rowSchema = rowSchema;
        this.columns = List.copyOf(columns);
        this.fields = new Field[columns.size()];
        this.decoders = new TextDecoder[columns.size()];
        for (int i = 0; i < fields.length; i++) {
            Column column = columns.get(i);
            ColumnTreatment treatment = treatments.get(i);
            if (treatment.excluded()) {
                continue; // no field: decode() passes the value over
            }
            fields[i] = rowSchema.field(column.name());
            if (fields[i] == null) {
                throw new IllegalArgumentException(
                        "row schema " + rowSchema.name() + " has no field for column " + column.name());
            }
            decoders[i] = treatment.masked()
                    ? treatment.mask()::apply
                    : TextDecoders.forType(column.type(), fields[i].schema());
        }
    }

    /**
     * @param relation the relation's name for error messages, e.g. {@code public.orders}
     * @param columns the columns in the order of the Relation message (and so of its tuples)
     * @param rowSchema the row struct built from those columns by {@code RowSchemas}
     */
    public static RowDecoder create(String relation, List<Column> columns, Schema rowSchema) {
        return new RowDecoder(relation, rowSchema, columns, Collections.nCopies(columns.size(), ColumnTreatment.KEEP));
    }

    /**
     * As {@link #create(String, List, Schema)}, each column treated as {@code treatments} (in the same order) says: an
     * excluded one has no field in {@code rowSchema} and its value is never read, a masked one a string field that
     * holds its masked text.
     */
    public static RowDecoder create(
            String relation, List<Column> columns, Schema rowSchema, List<ColumnTreatment> treatments) {
        return new RowDecoder(relation, rowSchema, columns, treatments);
    }

    public Schema rowSchema() {
        return rowSchema;
    }

    /**
     * @param image which row this is: decides the {@code before.}/{@code after.} prefix of text value keys
     * @throws ValueDecodingException naming the column, its type and the text if a value cannot be decoded
     * @throws IllegalArgumentException if the tuple has another number of columns than the relation
     */
    public DecodedRow decode(TupleData tuple, RowImage image) {
        if (tuple.size() != decoders.length) {
            throw new IllegalArgumentException("a tuple of " + relation + " has " + tuple.size()
                    + " columns, but its Relation message described " + decoders.length);
        }
        Struct row = new Struct(rowSchema);
        List<String> unchangedToast = List.of();
        Map<String, String> textValues = Map.of();
        for (int i = 0; i < decoders.length; i++) {
            if (fields[i] == null) {
                continue; // an excluded column
            }
            switch (tuple.kind(i)) {
                case 'n' -> {}
                case 'u' -> {
                    if (unchangedToast.isEmpty()) {
                        unchangedToast = new ArrayList<>();
                    }
                    unchangedToast.add(fields[i].name());
                }
                case 't' -> {
                    String text = tuple.text(i);
                    if (!decodeInto(row, i, text)) {
                        if (textValues.isEmpty()) {
                            textValues = new HashMap<>();
                        }
                        textValues.put(image.textValueKey(fields[i].name()), text);
                    }
                }
                default ->
                    throw failure(
                            i,
                            null,
                            "PostgreSQL sent kind '" + tuple.kind(i)
                                    + "'; pglane reads only text tuples (binary mode is never requested)",
                            null);
            }
        }
        return new DecodedRow(row, unchangedToast, textValues);
    }

    /** Puts the decoded value into the row; false if it must travel as text instead. */
    private boolean decodeInto(Struct row, int i, String text) {
        try {
            Object value = decoders[i].decode(text);
            if (value == TextDecoder.UNREPRESENTABLE) {
                return false;
            }
            row.put(fields[i], value);
            return true;
        } catch (RuntimeException e) {
            throw failure(i, text, String.valueOf(e.getMessage()), e);
        }
    }

    private ValueDecodingException failure(int i, String text, String problem, Throwable cause) {
        Column column = columns.get(i);
        return new ValueDecodingException(relation, column.name(), column.type().formatted(), text, problem, cause);
    }
}
