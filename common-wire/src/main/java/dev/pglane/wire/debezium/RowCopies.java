package dev.pglane.wire.debezium;

import dev.pglane.wire.types.ColumnParameters;
import java.util.HashMap;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import org.apache.kafka.connect.data.Field;
import org.apache.kafka.connect.data.Schema;
import org.apache.kafka.connect.data.SchemaBuilder;
import org.apache.kafka.connect.data.Struct;

/**
 * Copies of Debezium rows in the form pglane's sink reads: with every column optional (an unchanged TOAST value is
 * null in pglane's model, also in a NOT NULL column, whose Debezium field is required), and, for a table without a
 * key, with every column marked as the replica identity ({@link ColumnParameters#KEY}), as pglane's source marks the
 * columns of {@code REPLICA IDENTITY FULL}. The copied schemas are cached per row schema.
 *
 * <p>Not thread-safe: one per decode thread.
 */
final class RowCopies {
    private final Map<Schema, Schema> optional = new IdentityHashMap<>();
    private final Map<Schema, Schema> identity = new IdentityHashMap<>();

    /** {@code row} with every column optional and {@code nulled} set to null. */
    Struct withNulls(Struct row, List<String> nulled) {
        Schema schema = optional.computeIfAbsent(row.schema(), s -> copy(s, false));
        return copyInto(new Struct(schema), row, nulled);
    }

    /** {@code row} (null for none) with every column marked as the replica identity. */
    Struct asIdentity(Struct row) {
        if (row == null) {
            return null;
        }
        Schema schema = identity.computeIfAbsent(row.schema(), s -> copy(s, true));
        return copyInto(new Struct(schema), row, List.of());
    }

    private static Struct copyInto(Struct copy, Struct row, List<String> nulled) {
        for (Field field : row.schema().fields()) {
            if (!nulled.contains(field.name())) {
                copy.put(field.name(), row.get(field));
            }
        }
        return copy;
    }

    private static Schema copy(Schema row, boolean identity) {
        SchemaBuilder copy = like(row, SchemaBuilder.struct(), Map.of());
        Map<String, String> mark = identity ? Map.of(ColumnParameters.KEY, "true") : Map.of();
        row.fields().forEach(field -> copy.field(field.name(), column(field.schema(), mark)));
        return copy.build();
    }

    /** An optional copy of a column's schema, with {@code extra} parameters. */
    private static Schema column(Schema schema, Map<String, String> extra) {
        if (schema.isOptional() && extra.isEmpty()) {
            return schema;
        }
        SchemaBuilder builder = switch (schema.type()) {
            case ARRAY -> SchemaBuilder.array(schema.valueSchema());
            case MAP -> SchemaBuilder.map(schema.keySchema(), schema.valueSchema());
            default -> new SchemaBuilder(schema.type());
        };
        if (schema.type() == Schema.Type.STRUCT) {
            schema.fields().forEach(field -> builder.field(field.name(), field.schema()));
        }
        return like(schema, builder, extra).build();
    }

    /** {@code builder}, optional, with the name, version and parameters of {@code schema}, and {@code extra}. */
    private static SchemaBuilder like(Schema schema, SchemaBuilder builder, Map<String, String> extra) {
        builder.optional().name(schema.name()).version(schema.version()).doc(schema.doc());
        Map<String, String> parameters = new HashMap<>();
        if (schema.parameters() != null) {
            parameters.putAll(schema.parameters());
        }
        parameters.putAll(extra);
        if (!parameters.isEmpty()) {
            builder.parameters(parameters);
        }
        return builder;
    }
}
