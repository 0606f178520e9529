package dev.pglane.wire.types;

import dev.pglane.wire.SchemaNames;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import org.apache.kafka.connect.data.Schema;
import org.apache.kafka.connect.data.SchemaBuilder;

/**
 * Builds the row struct of a table, {@code <prefix>.<schema>.<table>.Value}: one optional field per
 * published column, named as the column, in the Relation message's column order. The envelope's
 * {@code before} and {@code after} use it.
 */
public final class RowSchemas {

    private RowSchemas() {}

    /** As {@link #build(String, String, String, List, ValueMappings)}, numerics as {@code mode} says. */
    public static Schema build(
            String topicPrefix, String schema, String table, List<Column> columns, NumericMapping mode) {
        return build(topicPrefix, schema, table, columns, ValueMappings.of(mode));
    }

    /**
     * @throws IllegalArgumentException if two columns share a name
     */
    public static Schema build(
            String topicPrefix, String schema, String table, List<Column> columns, ValueMappings mappings) {
        SchemaBuilder row = SchemaBuilder.struct()
                .name(SchemaNames.rowValue(topicPrefix, schema, table))
                .optional();
        Set<String> seen = new HashSet<>();
        for (Column column : columns) {
            if (!seen.add(column.name())) {
                throw new IllegalArgumentException(
                        "table " + schema + "." + table + " has column '" + column.name() + "' twice");
            }
            row.field(column.name(), ColumnSchemas.forColumn(column.type(), column.key(), mappings));
        }
        return row.build();
    }
}
