package dev.pglane.sink.values;

import dev.pglane.wire.types.NumericValues;
import java.nio.ByteBuffer;
import org.apache.kafka.connect.data.Decimal;
import org.apache.kafka.connect.data.Schema;

/**
 * {@code numeric} and {@code money} in any {@code numeric.mapping} mode, through {@link NumericValues} as the source
 * encodes them. Always plain digits: {@code money} does not read an exponent, and {@code numeric} derives its
 * display scale from the digits written, which plain text keeps.
 */
final class NumericText {

    private NumericText() {}

    /**
     * A Decimal ({@code BigDecimal}, or its unscaled bytes when no converter made it logical),
     * {@code VariableScaleDecimal} struct, double-mode FLOAT64 or string-mode STRING value.
     */
    static String of(Schema schema, Object value) {
        if (value instanceof byte[] || value instanceof ByteBuffer) {
            return Decimal.toLogical(schema, BinaryText.bytes(value)).toPlainString();
        }
        if (NumericValues.isSpecial(value)) {
            // NaN, Infinity and -Infinity read the same in Java and PostgreSQL; money rejects them, as it should.
            return value.toString();
        }
        return NumericValues.decode(value, schema).toPlainString();
    }
}
