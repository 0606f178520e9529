package dev.pglane.wire.types;

import java.time.LocalDateTime;
import java.time.ZoneOffset;
import java.time.temporal.ChronoUnit;
import org.apache.kafka.connect.data.SchemaBuilder;

/**
 * {@code timestamp} (without time zone) as {@code io.debezium.time.MicroTimestamp}: INT64
 * microseconds since 1970-01-01T00:00, the wall-clock value read as if it were UTC.
 *
 * <p>{@code infinity}/{@code -infinity} travel as {@link Long#MAX_VALUE}/{@link Long#MIN_VALUE}
 * ({@link LocalDateTime#MAX}/{@link LocalDateTime#MIN} in Java). PostgreSQL timestamps have
 * microsecond precision, so encoding truncates nothing a column can hold.
 *
 * <p>Counting from 1970 instead of PostgreSQL's 2000 costs the top of the range: timestamps from
 * 294247-01-10T04:00:54.775807 on (PostgreSQL allows up to the year 294276) overflow, and
 * {@link #encode} throws {@link ArithmeticException}; the source sends those values in the
 * envelope's {@code text_values}.
 */
public final class MicroTimestamp {

    public static final String NAME = "io.debezium.time.MicroTimestamp";
    public static final long POSITIVE_INFINITY = Long.MAX_VALUE;
    public static final long NEGATIVE_INFINITY = Long.MIN_VALUE;

    private static final LocalDateTime EPOCH = LocalDateTime.of(1970, 1, 1, 0, 0);

    private MicroTimestamp() {}

    public static SchemaBuilder builder() {
        return SchemaBuilder.int64().name(NAME).version(1);
    }

    /**
     * @throws IllegalArgumentException if {@code value} has nanoseconds below microsecond precision
     * @throws ArithmeticException if {@code value} is beyond the INT64 range (see above)
     */
    public static long encode(LocalDateTime value) {
        if (value.equals(LocalDateTime.MAX)) {
            return POSITIVE_INFINITY;
        }
        if (value.equals(LocalDateTime.MIN)) {
            return NEGATIVE_INFINITY;
        }
        if (value.getNano() % 1000 != 0) {
            throw new IllegalArgumentException("timestamp has sub-microsecond digits: " + value);
        }
        long micros = ChronoUnit.MICROS.between(EPOCH, value);
        if (micros == POSITIVE_INFINITY || micros == NEGATIVE_INFINITY) {
            throw new ArithmeticException("timestamp collides with the infinity encoding: " + value);
        }
        return micros;
    }

    public static LocalDateTime decode(long micros) {
        if (micros == POSITIVE_INFINITY) {
            return LocalDateTime.MAX;
        }
        if (micros == NEGATIVE_INFINITY) {
            return LocalDateTime.MIN;
        }
        long seconds = Math.floorDiv(micros, 1_000_000L);
        int nanos = (int) Math.floorMod(micros, 1_000_000L) * 1000;
        return LocalDateTime.ofEpochSecond(seconds, nanos, ZoneOffset.UTC);
    }
}
