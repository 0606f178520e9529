package dev.pglane.wire;

import java.util.List;
import org.apache.kafka.connect.data.Schema;
import org.apache.kafka.connect.data.SchemaBuilder;
import org.apache.kafka.connect.data.Struct;
import org.apache.kafka.connect.header.Header;
import org.apache.kafka.connect.header.Headers;

/**
 * The key of a change record when the source keys changes by row ({@code record.key=row}), as Debezium does:
 * {@code <prefix>.<schema>.<table>.Key}, a struct of the row's key columns with the row's own field schemas.
 * Such a record carries its xid in the {@link #XID_HEADER} header (and, as every change, in its envelope's
 * {@code transaction} block); markers and logical decoding messages keep the {@link TransactionKey}.
 */
public final class RowKey {

    /** The header that carries the source xid (INT64) of a change keyed by row, tombstones included. */
    public static final String XID_HEADER = "pglane.xid";

    private RowKey() {}

    /**
     * The key schema of a table, or {@code null} when it has no key columns (its records then have no key).
     *
     * @param rowSchema the table's row struct, whose field schemas the key's fields take
     * @param columns the key columns in key order
     * @throws IllegalArgumentException if a key column is not a field of the row
     */
    public static Schema schema(String prefix, String schema, String table, Schema rowSchema, List<String> columns) {
        if (columns.isEmpty()) {
            return null;
        }
        SchemaBuilder key = SchemaBuilder.struct().name(SchemaNames.fullName(prefix, schema, table, "Key"));
        for (String column : columns) {
            var field = rowSchema.field(column);
            if (field == null) {
                throw new IllegalArgumentException(
                        "key column '" + column + "' is not a column of " + schema + "." + table);
            }
            key.field(column, field.schema());
        }
        return key.build();
    }

    /** The key of {@code row}: its values of the key schema's columns. */
    public static Struct of(Schema keySchema, Struct row) {
        Struct key = new Struct(keySchema);
        for (var field : keySchema.fields()) {
            key.put(field, row.get(field.name()));
        }
        return key;
    }

    /**
     * The xid a record's {@link #XID_HEADER} header gives, whatever the header converter made of it (a number, or
     * its decimal text); -1 when there is no such header or it is not an xid.
     */
    public static long headerXid(Headers headers) {
        Header header = headers == null ? null : headers.lastWithName(XID_HEADER);
        Object value = header == null ? null : header.value();
        try {
            long xid = value instanceof Number number
                    ? number.longValue()
                    : value instanceof String text ? Long.parseLong(text.trim()) : -1L;
            return xid < 0 ? -1L : Xid.checkRange(xid);
        } catch (RuntimeException e) {
            return -1L;
        }
    }
}
