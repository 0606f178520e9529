package dev.pglane.wire.types;

import java.time.LocalTime;
import org.apache.kafka.connect.data.SchemaBuilder;

/**
 * {@code time} (without time zone) as {@code io.debezium.time.MicroTime}: INT64 microseconds since
 * midnight, 0 to {@value #END_OF_DAY} inclusive.
 *
 * <p>PostgreSQL accepts {@code 24:00:00}, which {@link LocalTime} cannot hold; it travels as
 * {@value #END_OF_DAY}. {@link #decode} rejects it, so consumers that must write it back use
 * {@link #format}, which renders it as PostgreSQL does.
 */
public final class MicroTime {

    public static final String NAME = "io.debezium.time.MicroTime";

    /** {@code 24:00:00} in microseconds. */
    public static final long END_OF_DAY = 86_400_000_000L;

    private MicroTime() {}

    public static SchemaBuilder builder() {
        return SchemaBuilder.int64().name(NAME).version(1);
    }

    public static long encode(LocalTime time) {
        if (time.getNano() % 1000 != 0) {
            throw new IllegalArgumentException("time has sub-microsecond digits: " + time);
        }
        return time.toNanoOfDay() / 1000L;
    }

    /**
     * @throws IllegalArgumentException for {@link #END_OF_DAY} or values outside a day
     */
    public static LocalTime decode(long micros) {
        checkRange(micros);
        if (micros == END_OF_DAY) {
            throw new IllegalArgumentException("24:00:00 has no LocalTime; use MicroTime.format");
        }
        return LocalTime.ofNanoOfDay(micros * 1000L);
    }

    /** PostgreSQL's text form, {@code HH:MM:SS[.ffffff]} without trailing zeros, incl. {@code 24:00:00}. */
    public static String format(long micros) {
        checkRange(micros);
        long seconds = micros / 1_000_000L;
        String text =
                String.format(java.util.Locale.ROOT, "%02d:%02d:%02d", seconds / 3600, seconds / 60 % 60, seconds % 60);
        return text + Fractions.micros(micros % 1_000_000L);
    }

    private static void checkRange(long micros) {
        if (micros < 0 || micros > END_OF_DAY) {
            throw new IllegalArgumentException("not a time of day in microseconds: " + micros);
        }
    }
}
