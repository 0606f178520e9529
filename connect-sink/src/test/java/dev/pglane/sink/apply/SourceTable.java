package dev.pglane.sink.apply;

import dev.pglane.wire.types.Column;
import dev.pglane.wire.types.NumericMapping;
import dev.pglane.wire.types.PgColumnType;
import dev.pglane.wire.types.PgType;
import dev.pglane.wire.types.RowSchemas;
import java.util.List;
import org.apache.kafka.connect.data.Field;
import org.apache.kafka.connect.data.Schema;
import org.apache.kafka.connect.data.Struct;

/** A source table as its change records describe it: schema and table name, and the row schema. */
public record SourceTable(String schema, String table, Schema rowSchema) {

    /** The row schema of {@code columns}, as the source builds it (topic prefix {@code src}). */
    public static SourceTable of(String schema, String table, Column... columns) {
        return new SourceTable(
                schema, table, RowSchemas.build("src", schema, table, List.of(columns), NumericMapping.PRECISE));
    }

    /** A replica identity column of a built-in type. */
    public static Column key(String name, PgType type) {
        return new Column(name, PgColumnType.of(type, -1), true);
    }

    /** A column of a built-in type without modifier. */
    public static Column column(String name, PgType type) {
        return column(name, type, -1);
    }

    public static Column column(String name, PgType type, int typmod) {
        return new Column(name, PgColumnType.of(type, typmod), false);
    }

    /** A row with the fields' values in order. */
    public Struct row(Object... values) {
        Struct row = new Struct(rowSchema);
        List<Field> fields = rowSchema.fields();
        for (int i = 0; i < values.length; i++) {
            row.put(fields.get(i), values[i]);
        }
        return row;
    }
}
