package dev.pglane.wire;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.apache.kafka.connect.data.Field;
import org.apache.kafka.connect.data.Schema;
import org.apache.kafka.connect.data.Struct;

/**
 * A struct's field values in its schema's order, as a decoder that checked each of them against its field's schema
 * hands them over: without Connect's {@link org.apache.kafka.connect.data.Struct}, whose {@code put} checks every
 * value again and builds a text naming the field for each one, which costs more than reading a change record's
 * envelope. {@link StructReader} reads either.
 */
public final class FieldValues {
    private final Schema schema;
    private final Object[] values;

    /**
     * @param values one per field of {@code schema}, by {@link Field#index()}; the caller gives up the array, and
     *     every value must be what {@code Struct.put} would accept for its field
     */
    public FieldValues(Schema schema, Object[] values) {
        if (schema.type() != Schema.Type.STRUCT
                || values.length != schema.fields().size()) {
            throw new IllegalArgumentException(
                    "need one value per field of a struct schema: " + values.length + " for " + schema);
        }
        this.schema = schema;
        this.values = values;
    }

    public Schema schema() {
        return schema;
    }

    /** The value of {@code field}, a field of {@link #schema()}, or its default as {@code Struct.get} gives it. */
    public Object get(Field field) {
        Object value = values[field.index()];
        return value == null ? field.schema().defaultValue() : value;
    }

    /**
     * These values as a Connect {@link Struct}, with the FieldValues nested in them (in fields, arrays and maps) as
     * Structs too, for a writer that reads only Connect data. Struct checks every value as it is put.
     */
    public Struct toStruct() {
        Struct struct = new Struct(schema);
        for (Field field : schema.fields()) {
            Object value = values[field.index()];
            if (value != null) { // left out, a field reads as its default, as here
                struct.put(field, toConnect(value));
            }
        }
        return struct;
    }

    private static Object toConnect(Object value) {
        if (value instanceof FieldValues nested) {
            return nested.toStruct();
        }
        if (value instanceof List<?> list) {
            List<Object> out = new ArrayList<>(list.size());
            list.forEach(item -> out.add(toConnect(item)));
            return out;
        }
        if (value instanceof Map<?, ?> map) {
            Map<Object, Object> out = new LinkedHashMap<>();
            map.forEach((key, item) -> out.put(toConnect(key), toConnect(item)));
            return out;
        }
        return value;
    }

    @Override
    public String toString() {
        return "FieldValues{" + schema.name() + "}";
    }
}
