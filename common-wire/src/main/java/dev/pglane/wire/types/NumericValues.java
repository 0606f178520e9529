package dev.pglane.wire.types;

import java.math.BigDecimal;
import java.math.RoundingMode;
import java.util.Set;
import org.apache.kafka.connect.data.Decimal;
import org.apache.kafka.connect.data.Schema;
import org.apache.kafka.connect.data.Struct;

/**
 * Converts {@code numeric} and {@code money} values to and from the field types that
 * {@link NumericMapping} chooses, so both connectors agree on every mode.
 *
 * <p>PostgreSQL's special numerics ({@code NaN}, {@code Infinity}, {@code -Infinity}) have no
 * Decimal form: {@link #encodeSpecial} returns {@code null} for them in {@code precise} mode, and the
 * source puts the text into the envelope's {@code text_values} instead.
 */
public final class NumericValues {

    /** PostgreSQL's text for the special numeric values. */
    public static final Set<String> SPECIALS = Set.of("NaN", "Infinity", "-Infinity");

    private NumericValues() {}

    /**
     * The field value of {@code value} under the column schema {@code schema}.
     *
     * @throws ArithmeticException if a Decimal column's scale cannot hold {@code value} exactly
     */
    public static Object encode(BigDecimal value, Schema schema) {
        if (Decimal.LOGICAL_NAME.equals(schema.name())) {
            int scale = Integer.parseInt(schema.parameters().get(Decimal.SCALE_FIELD));
            return value.setScale(scale, RoundingMode.UNNECESSARY);
        }
        if (VariableScaleDecimal.NAME.equals(schema.name())) {
            return VariableScaleDecimal.encode(value, schema);
        }
        return switch (schema.type()) {
            case STRING -> value.toPlainString();
            case FLOAT64 -> value.doubleValue();
            default -> throw new IllegalArgumentException("not a numeric column schema: " + schema.type());
        };
    }

    /**
     * The field value for a special ({@code NaN}, {@code Infinity}, {@code -Infinity}), or {@code null}
     * when it travels in {@code text_values}: in precise mode (a Decimal cannot hold it) and in double mode
     * (Kafka's JsonConverter writes non-finite doubles as strings and reads them back as 0.0).
     */
    public static Object encodeSpecial(String text, Schema schema) {
        if (!SPECIALS.contains(text)) {
            throw new IllegalArgumentException("not a special numeric: '" + text + "'");
        }
        return switch (schema.type()) {
            case STRING -> text;
            default -> null;
        };
    }

    /**
     * The numeric value of a field; {@code null} for a special (see {@link #isSpecial}).
     */
    public static BigDecimal decode(Object field, Schema schema) {
        if (field instanceof BigDecimal decimal) {
            return decimal;
        }
        if (field instanceof Struct struct && VariableScaleDecimal.NAME.equals(schema.name())) {
            return VariableScaleDecimal.decode(struct);
        }
        if (field instanceof Double d) {
            return d.isNaN() || d.isInfinite() ? null : BigDecimal.valueOf(d);
        }
        if (field instanceof String text) {
            return SPECIALS.contains(text) ? null : new BigDecimal(text);
        }
        throw new IllegalArgumentException("not a numeric field value: " + field);
    }

    /** True if a STRING or FLOAT64 field holds NaN or ±Infinity. */
    public static boolean isSpecial(Object field) {
        return field instanceof Double d
                ? d.isNaN() || d.isInfinite()
                : field instanceof String s && SPECIALS.contains(s);
    }
}
