package dev.pglane.wire.types;

import java.time.LocalDate;
import org.apache.kafka.connect.data.SchemaBuilder;

/**
 * {@code date} as {@code io.debezium.time.Date}: INT32 days since 1970-01-01.
 *
 * <p>PostgreSQL's {@code infinity} and {@code -infinity} dates travel as {@link Integer#MAX_VALUE}
 * and {@link Integer#MIN_VALUE}; in Java they are {@link LocalDate#MAX} and {@link LocalDate#MIN},
 * which no real PostgreSQL date reaches.
 */
public final class EpochDate {

    public static final String NAME = "io.debezium.time.Date";
    public static final int POSITIVE_INFINITY = Integer.MAX_VALUE;
    public static final int NEGATIVE_INFINITY = Integer.MIN_VALUE;

    private EpochDate() {}

    public static SchemaBuilder builder() {
        return SchemaBuilder.int32().name(NAME).version(1);
    }

    public static int encode(LocalDate date) {
        if (date.equals(LocalDate.MAX)) {
            return POSITIVE_INFINITY;
        }
        if (date.equals(LocalDate.MIN)) {
            return NEGATIVE_INFINITY;
        }
        return Math.toIntExact(date.toEpochDay());
    }

    public static LocalDate decode(int days) {
        if (days == POSITIVE_INFINITY) {
            return LocalDate.MAX;
        }
        if (days == NEGATIVE_INFINITY) {
            return LocalDate.MIN;
        }
        return LocalDate.ofEpochDay(days);
    }
}
