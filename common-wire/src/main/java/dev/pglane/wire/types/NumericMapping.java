package dev.pglane.wire.types;

import java.util.Locale;

/**
 * How {@code numeric} and {@code money} columns travel (the {@code numeric.mapping} setting).
 *
 * <p>Only {@link #PRECISE} is lossless for every finite value; it cannot hold {@code NaN} or
 * {@code ±Infinity}, which then travel as text in the envelope's {@code text_values}. {@link #STRING}
 * carries every value (specials included) as PostgreSQL text; {@link #DOUBLE} rounds to a binary
 * double but carries the specials natively.
 */
public enum NumericMapping {
    /** {@code numeric(p,s)} → Connect Decimal; unconstrained → VariableScaleDecimal. The default. */
    PRECISE,
    /** STRING holding PostgreSQL's text form. */
    STRING,
    /** FLOAT64. */
    DOUBLE;

    /** The configuration value, lower case. */
    public String configValue() {
        return name().toLowerCase(Locale.ROOT);
    }

    /**
     * The mode for a configuration value.
     *
     * @throws IllegalArgumentException naming the value if it is not precise, string or double
     */
    public static NumericMapping fromConfigValue(String value) {
        for (NumericMapping m : values()) {
            if (m.configValue().equals(value)) {
                return m;
            }
        }
        throw new IllegalArgumentException("numeric.mapping must be precise, string or double: '" + value + "'");
    }
}
