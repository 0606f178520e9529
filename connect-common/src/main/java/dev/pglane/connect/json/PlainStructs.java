package dev.pglane.connect.json;

import org.apache.kafka.connect.data.Schema;

/**
 * Which structs {@link PglaneJsonConverter#toValue} hands over as something other than a Connect
 * {@link org.apache.kafka.connect.data.Struct}, and what. A reader that knows the structs it reads has no use for
 * {@code Struct.put}, which checks every value again (the parser already read it by its field's schema) and builds
 * a text naming the field for each one.
 */
public interface PlainStructs {

    /** Every struct a Struct: what {@link PglaneJsonConverter#toConnectData} gives. */
    PlainStructs NONE = new PlainStructs() {
        @Override
        public boolean takes(Schema schema) {
            return false;
        }

        @Override
        public Object make(Schema schema, Object[] values) {
            throw new UnsupportedOperationException("takes no schema");
        }
    };

    /**
     * Whether a struct of {@code schema} comes from {@link #make}. Asked for the value itself and, inside a struct
     * it takes, for that struct's fields; every struct below one it does not take is a Struct.
     */
    boolean takes(Schema schema);

    /**
     * The struct of {@code schema}, a schema {@link #takes} took.
     *
     * @param values its field values by {@link org.apache.kafka.connect.data.Field#index()}, each of its field's
     *     schema, defaults in place of nulls; the array is the callee's
     */
    Object make(Schema schema, Object[] values);
}
