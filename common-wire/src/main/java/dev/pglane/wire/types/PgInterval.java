package dev.pglane.wire.types;

import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.apache.kafka.connect.data.SchemaBuilder;

/**
 * An {@code interval} as PostgreSQL stores it, and its {@code io.debezium.time.Interval} form: STRING
 * ISO-8601 {@code PnYnMnDTnHnMnS}.
 *
 * <p>PostgreSQL keeps months, days and microseconds apart (a month is not 30 days, a day is not 24
 * hours across a DST change) and each part may have its own sign; the text keeps them apart too:
 * years and months come from {@code months}, days from {@code days}, hours/minutes/seconds from
 * {@code micros}, each part signed, e.g. {@code P-1Y-2M3DT-4H-5M-6.5S}. PostgreSQL 17's infinite
 * intervals travel as {@code "infinity"} and {@code "-infinity"}.
 *
 * @param months years × 12 + months
 * @param days days
 * @param micros the time part in microseconds
 */
public record PgInterval(int months, int days, long micros) {

    public static final String NAME = "io.debezium.time.Interval";

    public static final PgInterval POSITIVE_INFINITY =
            new PgInterval(Integer.MAX_VALUE, Integer.MAX_VALUE, Long.MAX_VALUE);
    public static final PgInterval NEGATIVE_INFINITY =
            new PgInterval(Integer.MIN_VALUE, Integer.MIN_VALUE, Long.MIN_VALUE);

    private static final long MICROS_PER_HOUR = 3_600_000_000L;
    private static final long MICROS_PER_MINUTE = 60_000_000L;
    private static final Pattern ISO = Pattern.compile("P(?:(-?\\d+)Y)?(?:(-?\\d+)M)?(?:(-?\\d+)W)?(?:(-?\\d+)D)?"
            + "(?:T(?:(-?\\d+)H)?(?:(-?\\d+)M)?(?:(-?)(\\d+)(?:\\.(\\d{1,6}))?S)?)?");

    public static SchemaBuilder builder() {
        return SchemaBuilder.string().name(NAME).version(1);
    }

    /** The ISO-8601 text, always with all six parts, e.g. {@code P1Y2M3DT4H5M6.789S}. */
    public String toIso() {
        if (equals(POSITIVE_INFINITY)) {
            return "infinity";
        }
        if (equals(NEGATIVE_INFINITY)) {
            return "-infinity";
        }
        long hours = micros / MICROS_PER_HOUR;
        long minutes = micros % MICROS_PER_HOUR / MICROS_PER_MINUTE;
        long secondMicros = micros % MICROS_PER_MINUTE;
        long abs = Math.abs(secondMicros);
        String seconds = (secondMicros < 0 ? "-" : "") + abs / 1_000_000L + Fractions.micros(abs % 1_000_000L);
        return "P" + months / 12 + "Y" + months % 12 + "M" + days + "DT" + hours + "H" + minutes + "M" + seconds + "S";
    }

    /**
     * Parses the ISO-8601 form (parts may be omitted; weeks count as 7 days).
     *
     * @throws IllegalArgumentException naming the text if it is not an interval or overflows
     */
    public static PgInterval parse(String text) {
        if ("infinity".equals(text)) {
            return POSITIVE_INFINITY;
        }
        if ("-infinity".equals(text)) {
            return NEGATIVE_INFINITY;
        }
        Matcher m = ISO.matcher(text);
        if (!m.matches() || text.equals("P") || text.endsWith("T")) {
            throw new IllegalArgumentException("not an ISO-8601 interval: '" + text + "'");
        }
        try {
            long months = Math.addExact(Math.multiplyExact(part(m, 1), 12L), part(m, 2));
            long days = Math.addExact(Math.multiplyExact(part(m, 3), 7L), part(m, 4));
            long fraction = m.group(9) == null ? 0 : Long.parseLong((m.group(9) + "00000").substring(0, 6));
            long seconds = Math.addExact(Math.multiplyExact(part(m, 8), 1_000_000L), fraction);
            long micros = Math.addExact(
                    Math.addExact(
                            Math.multiplyExact(part(m, 5), MICROS_PER_HOUR),
                            Math.multiplyExact(part(m, 6), MICROS_PER_MINUTE)),
                    "-".equals(m.group(7)) ? -seconds : seconds);
            return new PgInterval(Math.toIntExact(months), Math.toIntExact(days), micros);
        } catch (ArithmeticException | NumberFormatException e) {
            throw new IllegalArgumentException("interval out of range: '" + text + "'", e);
        }
    }

    private static long part(Matcher m, int group) {
        String value = m.group(group);
        return value == null ? 0L : Long.parseLong(value);
    }
}
