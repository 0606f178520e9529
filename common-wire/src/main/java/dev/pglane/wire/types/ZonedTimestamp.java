package dev.pglane.wire.types;

import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.time.format.DateTimeFormatterBuilder;
import java.time.format.DateTimeParseException;
import java.time.temporal.ChronoField;
import org.apache.kafka.connect.data.SchemaBuilder;

/**
 * {@code timestamptz} as {@code io.debezium.time.ZonedTimestamp}: STRING, ISO-8601 in UTC with
 * exactly six fraction digits, e.g. {@code 2024-03-01T12:30:00.250000Z}.
 *
 * <p>PostgreSQL stores a {@code timestamptz} as a UTC instant, so UTC loses nothing. The specials
 * travel as {@code "infinity"} and {@code "-infinity"} ({@link OffsetDateTime#MAX}/{@link
 * OffsetDateTime#MIN} in Java). A fixed number of digits keeps the strings sortable.
 */
public final class ZonedTimestamp {

    public static final String NAME = "io.debezium.time.ZonedTimestamp";
    public static final String POSITIVE_INFINITY = "infinity";
    public static final String NEGATIVE_INFINITY = "-infinity";

    private static final DateTimeFormatter FORMAT = new DateTimeFormatterBuilder()
            .append(DateTimeFormatter.ISO_LOCAL_DATE)
            .appendLiteral('T')
            .appendPattern("HH:mm:ss")
            .appendFraction(ChronoField.MICRO_OF_SECOND, 6, 6, true)
            .appendLiteral('Z')
            .toFormatter();

    private ZonedTimestamp() {}

    public static SchemaBuilder builder() {
        return SchemaBuilder.string().name(NAME).version(1);
    }

    public static String encode(OffsetDateTime value) {
        if (value.equals(OffsetDateTime.MAX)) {
            return POSITIVE_INFINITY;
        }
        if (value.equals(OffsetDateTime.MIN)) {
            return NEGATIVE_INFINITY;
        }
        if (value.getNano() % 1000 != 0) {
            throw new IllegalArgumentException("timestamp has sub-microsecond digits: " + value);
        }
        return FORMAT.format(value.withOffsetSameInstant(ZoneOffset.UTC));
    }

    /**
     * Reads any ISO-8601 timestamp with an offset (so also Debezium's variable-precision form),
     * returning it in UTC.
     *
     * @throws IllegalArgumentException naming the text if it is not one
     */
    public static OffsetDateTime decode(String text) {
        if (POSITIVE_INFINITY.equals(text)) {
            return OffsetDateTime.MAX;
        }
        if (NEGATIVE_INFINITY.equals(text)) {
            return OffsetDateTime.MIN;
        }
        try {
            return OffsetDateTime.parse(text).withOffsetSameInstant(ZoneOffset.UTC);
        } catch (DateTimeParseException e) {
            throw new IllegalArgumentException("not a " + NAME + ": '" + text + "'", e);
        }
    }
}
