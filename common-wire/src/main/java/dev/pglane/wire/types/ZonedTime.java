package dev.pglane.wire.types;

import java.time.OffsetTime;
import java.time.format.DateTimeFormatter;
import java.time.format.DateTimeFormatterBuilder;
import java.time.format.DateTimeParseException;
import java.time.temporal.ChronoField;
import org.apache.kafka.connect.data.SchemaBuilder;

/**
 * {@code timetz} as {@code io.debezium.time.ZonedTime}: STRING {@code HH:mm:ss.ffffff} plus the
 * original offset, e.g. {@code 10:15:30.000000+02:00} ({@code Z} for UTC, seconds when the offset
 * has them).
 *
 * <p>Unlike a {@code timestamptz}, a {@code timetz} keeps its offset in PostgreSQL, and there is no
 * date to convert with, so the offset is kept rather than normalised to UTC (Debezium converts to
 * UTC here; see docs/wire-format.md).
 */
public final class ZonedTime {

    public static final String NAME = "io.debezium.time.ZonedTime";

    private static final DateTimeFormatter FORMAT = new DateTimeFormatterBuilder()
            .appendPattern("HH:mm:ss")
            .appendFraction(ChronoField.MICRO_OF_SECOND, 6, 6, true)
            .appendOffset("+HH:MM:ss", "Z")
            .toFormatter();

    private ZonedTime() {}

    public static SchemaBuilder builder() {
        return SchemaBuilder.string().name(NAME).version(1);
    }

    public static String encode(OffsetTime value) {
        if (value.getNano() % 1000 != 0) {
            throw new IllegalArgumentException("time has sub-microsecond digits: " + value);
        }
        return FORMAT.format(value);
    }

    /**
     * @throws IllegalArgumentException naming the text if it is not an ISO time with offset
     */
    public static OffsetTime decode(String text) {
        try {
            return OffsetTime.parse(text, DateTimeFormatter.ISO_OFFSET_TIME);
        } catch (DateTimeParseException e) {
            throw new IllegalArgumentException("not a " + NAME + ": '" + text + "'", e);
        }
    }
}
