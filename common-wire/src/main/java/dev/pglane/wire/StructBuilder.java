package dev.pglane.wire;

import org.apache.kafka.connect.data.Field;
import org.apache.kafka.connect.data.Schema;
import org.apache.kafka.connect.data.Struct;
import org.apache.kafka.connect.errors.DataException;

/**
 * Fills in a struct's fields by name, and hands over the value in the form its writer reads: a Connect {@link Struct},
 * which checks each value against its field's schema as it is put, and all of a nested struct's values again as the
 * nested struct is put, or {@link FieldValues}, which takes the values as given. pglane's own Avro writer reads
 * FieldValues, so its envelopes and markers skip those checks, which cost more than writing the record; their values
 * are the ones a Struct accepts (the wire tests build both and compare the bytes).
 */
public abstract class StructBuilder {

    /** What {@link #build()} gives. */
    public enum Kind {
        /** A {@link Struct}: for converters and everything else that reads Connect data. */
        STRUCT,
        /** {@link FieldValues}: for pglane's Avro writer, which reads them as it reads a Struct. */
        FIELD_VALUES;

        /** A builder of a value of {@code schema}, a struct schema. */
        public StructBuilder start(Schema schema) {
            return this == STRUCT ? new Checked(schema) : new AsGiven(schema);
        }
    }

    private StructBuilder() {}

    /**
     * Sets {@code field} to {@code value}, a value of this kind for nested structs.
     *
     * @throws DataException if the schema has no such field (and, for a Struct, if the value does not fit it)
     */
    public abstract StructBuilder put(String field, Object value);

    /** The struct: a {@link Struct} or a {@link FieldValues}, as the kind says. */
    public abstract Object build();

    private static final class Checked extends StructBuilder {
        private final Struct struct;

        Checked(Schema schema) {
            this.struct = new Struct(schema);
        }

        @Override
        public StructBuilder put(String field, Object value) {
            struct.put(field, value);
            return this;
        }

        @Override
        public Object build() {
            return struct;
        }
    }

    private static final class AsGiven extends StructBuilder {
        private final Schema schema;
        private final Object[] values;

        AsGiven(Schema schema) {
            this.schema = schema;
            this.values = new Object[schema.fields().size()];
        }

        @Override
        public StructBuilder put(String field, Object value) {
            Field found = schema.field(field);
            if (found == null) {
                throw new DataException(field + " is not a valid field name");
            }
            values[found.index()] = value;
            return this;
        }

        @Override
        public Object build() {
            return new FieldValues(schema, values);
        }
    }
}
