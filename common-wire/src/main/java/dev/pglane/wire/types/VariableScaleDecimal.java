package dev.pglane.wire.types;

import java.math.BigDecimal;
import java.math.BigInteger;
import org.apache.kafka.connect.data.Schema;
import org.apache.kafka.connect.data.SchemaBuilder;
import org.apache.kafka.connect.data.Struct;

/**
 * Unconstrained {@code numeric} as {@code io.debezium.data.VariableScaleDecimal}: STRUCT
 * {@code {scale: INT32, value: BYTES}}, the value being the unscaled integer in two's-complement
 * big-endian bytes, as in Connect's Decimal. Connect's Decimal fixes one scale per schema, which an
 * unconstrained column does not have.
 */
public final class VariableScaleDecimal {

    public static final String NAME = "io.debezium.data.VariableScaleDecimal";
    public static final String SCALE = "scale";
    public static final String VALUE = "value";

    private VariableScaleDecimal() {}

    public static SchemaBuilder builder() {
        return SchemaBuilder.struct()
                .name(NAME)
                .version(1)
                .doc("Variable scaled decimal")
                .field(SCALE, Schema.INT32_SCHEMA)
                .field(VALUE, Schema.BYTES_SCHEMA);
    }

    /** {@code value} as a struct of {@code schema} (the column's optional variant of {@link #builder()}). */
    public static Struct encode(BigDecimal value, Schema schema) {
        return new Struct(schema)
                .put(SCALE, value.scale())
                .put(VALUE, value.unscaledValue().toByteArray());
    }

    public static BigDecimal decode(Struct struct) {
        return new BigDecimal(new BigInteger(struct.getBytes(VALUE)), struct.getInt32(SCALE));
    }
}
