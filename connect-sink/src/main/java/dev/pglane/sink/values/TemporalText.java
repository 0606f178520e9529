package dev.pglane.sink.values;

import dev.pglane.wire.types.EpochDate;
import dev.pglane.wire.types.MicroTime;
import dev.pglane.wire.types.MicroTimestamp;
import dev.pglane.wire.types.ZonedTimestamp;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.LocalTime;
import java.time.OffsetDateTime;

/**
 * {@code date}, {@code timestamp} and {@code timestamptz} in PostgreSQL's ISO input form,
 * {@code 2024-03-01 12:30:00.25+00}, from the wire's codecs.
 *
 * <p>The wire counts years proleptically (1 BC = year 0, as {@link LocalDate} does) and prints them ISO-style
 * ({@code -0043}, {@code +10000}); PostgreSQL reads neither a sign nor year 0, so every value is re-rendered with
 * a positive year and a {@code BC} suffix before the year 1. The infinities map to {@code infinity} and
 * {@code -infinity}; {@code time} is {@link MicroTime#format}, and {@code timetz} and {@code interval} texts are
 * already PostgreSQL input (ISO-8601 with signed parts, offsets with seconds and {@code Z} included).
 */
final class TemporalText {

    private static final String INFINITY = "infinity";
    private static final String MINUS_INFINITY = "-infinity";

    private TemporalText() {}

    /** {@code io.debezium.time.Date}: days since 1970-01-01. */
    static String date(int days) {
        return switch (days) {
            case EpochDate.POSITIVE_INFINITY -> INFINITY;
            case EpochDate.NEGATIVE_INFINITY -> MINUS_INFINITY;
            default -> {
                LocalDate date = EpochDate.decode(days);
                yield day(date) + era(date);
            }
        };
    }

    /** {@code io.debezium.time.MicroTimestamp}: wall-clock microseconds since 1970-01-01T00:00. */
    static String timestamp(long micros) {
        if (micros == MicroTimestamp.POSITIVE_INFINITY) {
            return INFINITY;
        }
        if (micros == MicroTimestamp.NEGATIVE_INFINITY) {
            return MINUS_INFINITY;
        }
        LocalDateTime value = MicroTimestamp.decode(micros);
        return day(value.toLocalDate()) + " " + time(value.toLocalTime()) + era(value.toLocalDate());
    }

    /** {@code io.debezium.time.ZonedTimestamp}: ISO-8601 with an offset (UTC on the wire), or the infinities. */
    static String timestampWithOffset(String text) {
        if (ZonedTimestamp.POSITIVE_INFINITY.equals(text) || ZonedTimestamp.NEGATIVE_INFINITY.equals(text)) {
            return text;
        }
        OffsetDateTime utc = ZonedTimestamp.decode(text);
        LocalDate date = utc.toLocalDate();
        return day(date) + " " + time(utc.toLocalTime()) + "+00" + era(date);
    }

    /** {@code YYYY-MM-DD} with the year counted from 1 AD or back from 1 BC, at least four digits. */
    private static String day(LocalDate date) {
        int year = date.getYear() > 0 ? date.getYear() : 1 - date.getYear();
        // by hand, not String.format: a Formatter per date and timestamp value showed in the apply workers' profile
        StringBuilder day = new StringBuilder(13);
        String digits = Integer.toString(year);
        day.append("0000", 0, Math.max(0, 4 - digits.length())).append(digits).append('-');
        twoDigits(day, date.getMonthValue()).append('-');
        return twoDigits(day, date.getDayOfMonth()).toString();
    }

    private static StringBuilder twoDigits(StringBuilder text, int value) {
        return text.append((char) ('0' + value / 10)).append((char) ('0' + value % 10));
    }

    private static String era(LocalDate date) {
        return date.getYear() > 0 ? "" : " BC";
    }

    private static String time(LocalTime time) {
        return MicroTime.format(time.toNanoOfDay() / 1000L);
    }
}
