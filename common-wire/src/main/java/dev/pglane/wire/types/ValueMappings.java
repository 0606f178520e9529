package dev.pglane.wire.types;

import java.util.Objects;

/**
 * The choices of how column values travel that a source configures: the column schemas and the decoders follow
 * them.
 *
 * @param numeric {@code numeric} and {@code money} columns
 * @param interval {@code interval} columns
 */
public record ValueMappings(NumericMapping numeric, IntervalMapping interval) {

    /** The defaults: precise numerics, intervals as ISO-8601 text. */
    public static final ValueMappings DEFAULT = new ValueMappings(NumericMapping.PRECISE, IntervalMapping.STRING);

    public ValueMappings {
        Objects.requireNonNull(numeric, "numeric");
        Objects.requireNonNull(interval, "interval");
    }

    /** {@code numeric} with the default for the rest. */
    public static ValueMappings of(NumericMapping numeric) {
        return new ValueMappings(numeric, IntervalMapping.STRING);
    }
}
