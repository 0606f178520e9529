package dev.pglane.source.values;

import dev.pglane.wire.types.MicroTime;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.LocalTime;
import java.time.OffsetDateTime;
import java.time.OffsetTime;
import java.time.ZoneOffset;

/**
 * Reads the date/time texts PostgreSQL prints with {@code DateStyle=ISO}: {@code 2024-03-01},
 * {@code 0044-03-15 BC}, {@code 12:34:56.5}, {@code 24:00:00}, {@code 2024-03-01 12:30:00.25+05:30},
 * {@code 0044-03-15 12:53:28+00:53:28 BC}. Years may have more than four digits; fractions have one to six digits;
 * offsets are {@code ±HH}, {@code ±HH:MM} or {@code ±HH:MM:SS}. BC years become proleptic ISO years
 * (1 BC = year 0), the calendar PostgreSQL itself counts in. The infinities are the decoders' business.
 */
final class PgDateTimeText {

    private static final long MICROS_PER_SECOND = 1_000_000L;

    private final String text;
    private int pos;

    private PgDateTimeText(String text) {
        this.text = text;
    }

    static LocalDate date(String text) {
        PgDateTimeText in = new PgDateTimeText(text);
        int[] ymd = in.yearMonthDay();
        LocalDate date = in.withEra(ymd);
        in.end();
        return date;
    }

    /** Microseconds since midnight, up to {@link MicroTime#END_OF_DAY} for {@code 24:00:00}. */
    static long time(String text) {
        PgDateTimeText in = new PgDateTimeText(text);
        long micros = in.timeOfDay();
        in.end();
        return micros;
    }

    /** A {@code timetz}, or {@code null} for {@code 24:00:00} with an offset, which {@link OffsetTime} cannot hold. */
    static OffsetTime timeWithOffset(String text) {
        PgDateTimeText in = new PgDateTimeText(text);
        long micros = in.timeOfDay();
        ZoneOffset offset = in.offset();
        in.end();
        return micros == MicroTime.END_OF_DAY ? null : OffsetTime.of(localTime(micros), offset);
    }

    static LocalDateTime timestamp(String text) {
        PgDateTimeText in = new PgDateTimeText(text);
        int[] ymd = in.yearMonthDay();
        in.expect(' ');
        long micros = in.timeOfDay();
        LocalDate date = in.withEra(ymd);
        in.end();
        return LocalDateTime.of(date, localTime(micros));
    }

    static OffsetDateTime timestampWithOffset(String text) {
        PgDateTimeText in = new PgDateTimeText(text);
        int[] ymd = in.yearMonthDay();
        in.expect(' ');
        long micros = in.timeOfDay();
        ZoneOffset offset = in.offset();
        LocalDate date = in.withEra(ymd);
        in.end();
        return OffsetDateTime.of(date, localTime(micros), offset);
    }

    private static LocalTime localTime(long micros) {
        return LocalTime.ofNanoOfDay(micros * 1000L);
    }

    private int[] yearMonthDay() {
        int year = number(1, 9);
        expect('-');
        int month = number(2, 2);
        expect('-');
        int day = number(2, 2);
        return new int[] {year, month, day};
    }

    /** Consumes an optional {@code " BC"} and builds the date in proleptic years. */
    private LocalDate withEra(int[] ymd) {
        boolean bc = text.startsWith(" BC", pos);
        if (bc) {
            pos += 3;
        }
        return LocalDate.of(bc ? 1 - ymd[0] : ymd[0], ymd[1], ymd[2]);
    }

    private long timeOfDay() {
        long hours = number(2, 2);
        expect(':');
        long minutes = number(2, 2);
        expect(':');
        long seconds = number(2, 2);
        long micros = ((hours * 60 + minutes) * 60 + seconds) * MICROS_PER_SECOND + fraction();
        if (minutes > 59 || seconds > 59 || micros > MicroTime.END_OF_DAY) {
            throw new IllegalArgumentException("not a time of day");
        }
        return micros;
    }

    /** An optional {@code .f} of one to six digits, in microseconds. */
    private long fraction() {
        if (pos >= text.length() || text.charAt(pos) != '.') {
            return 0;
        }
        pos++;
        int start = pos;
        long value = number(1, 6);
        for (int digits = pos - start; digits < 6; digits++) {
            value *= 10;
        }
        return value;
    }

    private ZoneOffset offset() {
        char sign = pos < text.length() ? text.charAt(pos) : '?';
        if (sign != '+' && sign != '-') {
            throw new IllegalArgumentException("expected a UTC offset at position " + pos);
        }
        pos++;
        int hours = number(2, 2);
        int minutes = optionalPart();
        int seconds = minutes < 0 ? -1 : optionalPart();
        int factor = sign == '-' ? -1 : 1;
        return ZoneOffset.ofHoursMinutesSeconds(
                factor * hours, factor * Math.max(minutes, 0), factor * Math.max(seconds, 0));
    }

    /** An optional {@code :NN}, or -1. */
    private int optionalPart() {
        if (pos < text.length() && text.charAt(pos) == ':') {
            pos++;
            return number(2, 2);
        }
        return -1;
    }

    private int number(int minDigits, int maxDigits) {
        int start = pos;
        int value = 0;
        while (pos < text.length() && pos - start < maxDigits && Character.isDigit(text.charAt(pos))) {
            value = value * 10 + (text.charAt(pos) - '0');
            pos++;
        }
        if (pos - start < minDigits) {
            throw new IllegalArgumentException("expected " + minDigits + " digits at position " + start);
        }
        return value;
    }

    private void expect(char c) {
        if (pos >= text.length() || text.charAt(pos) != c) {
            throw new IllegalArgumentException("expected '" + c + "' at position " + pos);
        }
        pos++;
    }

    private void end() {
        if (pos != text.length()) {
            throw new IllegalArgumentException("unexpected text at position " + pos);
        }
    }
}
