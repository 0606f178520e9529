package dev.pglane.wire.types;

import org.apache.kafka.connect.data.SchemaBuilder;

/**
 * An {@code interval} as {@code io.debezium.time.MicroDuration}: INT64 microseconds (the {@link
 * IntervalMapping#NUMERIC} mapping).
 *
 * <p>The count is Debezium's, so that its consumers read the same number from either source: months become
 * {@value #DAYS_PER_MONTH} days (a Julian year over 12), days 24 hours, summed in floating point and truncated toward
 * zero. It loses what PostgreSQL keeps apart, so it is not the default; infinite intervals and those beyond 292,000
 * years have no count and travel as text.
 */
public final class MicroDuration {

    public static final String NAME = "io.debezium.time.MicroDuration";

    /** 365.25 / 12. */
    public static final double DAYS_PER_MONTH = 30.4375;

    private static final long MICROS_PER_HOUR = 3_600_000_000L;
    private static final long MICROS_PER_MINUTE = 60_000_000L;

    private MicroDuration() {}

    public static SchemaBuilder builder() {
        return SchemaBuilder.int64().name(NAME).version(1);
    }

    /**
     * The microseconds of {@code interval}.
     *
     * @throws IllegalArgumentException if it is infinite or its count does not fit a long
     */
    public static long of(PgInterval interval) {
        if (interval.equals(PgInterval.POSITIVE_INFINITY) || interval.equals(PgInterval.NEGATIVE_INFINITY)) {
            throw new IllegalArgumentException("an infinite interval has no MicroDuration");
        }
        // the time part split as a client library splits PostgreSQL's text (each part carrying the sign), then
        // summed in the order Debezium sums it, so that the double rounds the same way
        long micros = interval.micros();
        long hours = micros / MICROS_PER_HOUR;
        long minutes = micros % MICROS_PER_HOUR / MICROS_PER_MINUTE;
        double seconds = (micros % MICROS_PER_MINUTE) / 1e6;
        double days = interval.months() * DAYS_PER_MONTH + interval.days();
        double total = (((days * 24 + hours) * 60) + minutes) * 60 + seconds;
        double count = total * 1e6;
        if (count >= 0x1p63 || count < -0x1p63) {
            throw new IllegalArgumentException("interval " + interval.toIso() + " is beyond a MicroDuration");
        }
        return (long) count;
    }
}
