package dev.pglane.sink.apply;

import dev.pglane.sink.assemble.ChangeRecord;
import dev.pglane.sink.assemble.SourceTransaction;
import dev.pglane.sink.values.PgText;
import dev.pglane.wire.envelope.ChangeEvent;
import dev.pglane.wire.envelope.RowImage;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.sql.Types;
import java.util.List;
import java.util.stream.Collectors;
import org.apache.kafka.connect.data.Field;
import org.apache.kafka.connect.data.Struct;
import org.apache.kafka.connect.errors.DataException;

/**
 * Binds a record's values as PostgreSQL text, which the server parses into the column's type: a
 * {@code text_values} entry wins over the typed field (which is null then).
 */
final class RowValues {
    private RowValues() {}

    /** The row that identifies the target row: the old one when the source sent it, else the new one. */
    static RowImage matchImage(ChangeEvent event) {
        return event.before() != null ? RowImage.BEFORE : RowImage.AFTER;
    }

    /**
     * Binds {@code fields} of {@code image} from parameter {@code index} on.
     *
     * @return the next parameter index
     */
    static int bind(PreparedStatement statement, int index, List<Field> fields, ChangeEvent event, RowImage image)
            throws SQLException {
        int next = index;
        for (Field field : fields) {
            String text = text(field, event, image);
            if (text == null) {
                statement.setNull(next++, Types.OTHER);
            } else {
                // Types.OTHER leaves the parameter untyped, so the server reads it as the column's type.
                statement.setObject(next++, text, Types.OTHER);
            }
        }
        return next;
    }

    /**
     * {@link #bind}, naming the record and its transaction if one of its values does not fit its schema.
     *
     * @return the next parameter index
     */
    static int bindNaming(
            PreparedStatement statement,
            int index,
            List<Field> fields,
            ChangeRecord record,
            RowImage image,
            SourceTransaction tx)
            throws SQLException {
        try {
            return bind(statement, index, fields, record.event(), image);
        } catch (DataException e) {
            throw unwritable(record, tx, e);
        }
    }

    /** {@code e}, naming the record and its transaction. */
    static DataException unwritable(ChangeRecord record, SourceTransaction tx, DataException e) {
        return new DataException(
                "Record " + record.position() + " of " + tx.describe() + " has a value the sink cannot write: "
                        + e.getMessage(),
                e);
    }

    /** The PostgreSQL text of {@code field} in {@code image}, or null for SQL NULL. */
    static String text(Field field, ChangeEvent event, RowImage image) {
        if (!event.textValues().isEmpty()) { // rare: spare the common case building the key
            String text = event.textValues().get(image.textValueKey(field.name()));
            if (text != null) {
                return text;
            }
        }
        Struct row = image == RowImage.BEFORE ? event.before() : event.after();
        return PgText.of(field.schema(), row.get(field));
    }

    /** {@code (id, region)=(5, eu)}, as PostgreSQL's own key messages name a row; {@code ()} if no fields. */
    static String describe(List<Field> fields, ChangeEvent event, RowImage image) {
        return fields.stream().map(Field::name).collect(Collectors.joining(", ", "(", ")"))
                + fields.stream()
                        .map(f -> String.valueOf(text(f, event, image)))
                        .collect(Collectors.joining(", ", "=(", ")"));
    }
}
