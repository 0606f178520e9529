package dev.pglane.wire.envelope;

import java.time.Instant;

/**
 * One point in time at the three precisions Debezium publishes ({@code ts_ms}, {@code ts_us},
 * {@code ts_ns}), all counted from the Unix epoch.
 *
 * <p>PostgreSQL timestamps have microsecond precision, so {@code ts_ns} is {@code ts_us * 1000};
 * it is {@code null} where that would overflow (after the year 2262).
 *
 * @param ms milliseconds since the epoch
 * @param us microseconds since the epoch, or {@code null} if unknown
 * @param ns nanoseconds since the epoch, or {@code null} if unknown
 */
public record Timestamps(long ms, Long us, Long ns) {

    /** All three precisions from microseconds, e.g. a commit timestamp. */
    public static Timestamps ofMicros(long epochMicros) {
        Long nanos;
        try {
            nanos = Math.multiplyExact(epochMicros, 1000L);
        } catch (ArithmeticException e) {
            nanos = null;
        }
        return new Timestamps(Math.floorDiv(epochMicros, 1000L), epochMicros, nanos);
    }

    /** All three precisions from an instant truncated to microseconds, e.g. the processing time. */
    public static Timestamps ofInstant(Instant instant) {
        return ofMicros(
                Math.addExact(Math.multiplyExact(instant.getEpochSecond(), 1_000_000L), instant.getNano() / 1000L));
    }
}
