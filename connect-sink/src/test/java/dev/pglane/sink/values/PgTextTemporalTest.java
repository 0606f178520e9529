package dev.pglane.sink.values;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.pglane.wire.types.IntervalMapping;
import dev.pglane.wire.types.NumericMapping;
import dev.pglane.wire.types.ValueMappings;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.ZoneOffset;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * Dates, times, timestamps and intervals written through {@link PgText} into a real PostgreSQL 17 column, with the
 * wire's sentinels, microsecond precision, BC years and PostgreSQL's extremes. The session's date order,
 * {@code IntervalStyle} and {@code TimeZone} are set away from ISO/UTC to show the texts do not depend on them.
 */
@Timeout(value = 2, unit = TimeUnit.MINUTES)
class PgTextTemporalTest {

    @RegisterExtension
    static final RoundTripServer target = new RoundTripServer(
            "SET DateStyle = 'ISO, DMY'", "SET IntervalStyle = 'sql_standard'", "SET TimeZone = 'Asia/Kolkata'");

    @Test
    void datesAsDaysSinceTheEpoch() throws Exception {
        assertEquals("1970-01-01", target.assertWrites("date", 0, "1970-01-01"));
        assertEquals("2024-02-29", target.assertWrites("date", 19782, "2024-02-29"));
        target.assertWrites("date", -1, "1969-12-31");
        target.assertWrites("date", days(1, 1, 1), "0001-01-01");
        assertEquals("0044-03-15 BC", target.assertWrites("date", days(-43, 3, 15), "0044-03-15 BC"));
        target.assertWrites("date", days(0, 12, 31), "0001-12-31 BC");
        target.assertWrites("date", days(-4712, 1, 1), "4713-01-01 BC");
        target.assertWrites("date", days(5874897, 12, 31), "5874897-12-31");
    }

    @Test
    void dateInfinitiesFromTheirSentinels() throws Exception {
        assertEquals("infinity", target.assertWrites("date", Integer.MAX_VALUE, "infinity"));
        assertEquals("-infinity", target.assertWrites("date", Integer.MIN_VALUE, "-infinity"));
    }

    @Test
    void timesAsMicrosSinceMidnight() throws Exception {
        target.assertWrites("time", 0L, "00:00:00");
        assertEquals("12:34:56.789012", target.assertWrites("time", 45_296_789_012L, "12:34:56.789012"));
        target.assertWrites("time", 1L, "00:00:00.000001");
        target.assertWrites("time(3)", 45_296_789_000L, "12:34:56.789");
        assertEquals("24:00:00", target.assertWrites("time", 86_400_000_000L, "24:00:00"));
    }

    @Test
    void timesWithOffsetsPassThrough() throws Exception {
        target.assertWrites("time with time zone", "10:15:30.000000Z", "10:15:30+00");
        target.assertWrites("time with time zone", "23:59:59.999999+05:30", "23:59:59.999999+05:30");
        target.assertWrites("time with time zone", "00:00:00.000001-01:02:03", "00:00:00.000001-01:02:03");
    }

    @Test
    void timestampsAsWallClockMicros() throws Exception {
        assertEquals(
                "2024-03-01 12:30:00.250001",
                target.assertWrites("timestamp", micros(2024, 3, 1, 12, 30, 0, 250_001), "2024-03-01 12:30:00.250001"));
        target.assertWrites("timestamp", -1L, "1969-12-31 23:59:59.999999");
        target.assertWrites("timestamp", micros(1, 1, 1, 0, 0, 0, 0), "0001-01-01 00:00:00");
        assertEquals(
                "0044-03-15 12:00:00.5 BC",
                target.assertWrites("timestamp", micros(-43, 3, 15, 12, 0, 0, 500_000), "0044-03-15 12:00:00.5 BC"));
        target.assertWrites("timestamp", micros(-4712, 1, 1, 0, 0, 0, 0), "4713-01-01 00:00:00 BC");
        target.assertWrites("timestamp", micros(294246, 12, 31, 23, 59, 59, 999_999), "294246-12-31 23:59:59.999999");
        target.assertWrites("timestamp(0)", micros(2024, 3, 1, 12, 30, 1, 0), "2024-03-01 12:30:01");
    }

    @Test
    void timestampInfinitiesFromTheirSentinels() throws Exception {
        assertEquals("infinity", target.assertWrites("timestamp", Long.MAX_VALUE, "infinity"));
        assertEquals("-infinity", target.assertWrites("timestamp", Long.MIN_VALUE, "-infinity"));
    }

    @Test
    void timestampsWithTimeZoneFromUtcIsoText() throws Exception {
        assertEquals(
                "2024-03-01 12:30:00.25+00",
                target.assertWrites("timestamptz", "2024-03-01T12:30:00.250000Z", "2024-03-01 12:30:00.25+00"));
        target.assertWrites("timestamptz", "2024-03-01T12:30:00.000001Z", "2024-03-01 18:00:00.000001+05:30");
        target.assertWrites("timestamptz", "0001-01-01T00:00:00.000000Z", "0001-01-01 00:00:00+00");
        target.assertWrites("timestamptz", "-0043-03-15T12:00:00.000000Z", "0044-03-15 12:00:00+00 BC");
        target.assertWrites("timestamptz", "0000-12-31T23:59:59.999999Z", "0001-12-31 23:59:59.999999+00 BC");
        target.assertWrites("timestamptz", "+10000-01-01T00:00:00.000000Z", "10000-01-01 00:00:00+00");
        target.assertWrites("timestamptz", "2024-03-01T18:00:00+05:30", "2024-03-01 12:30:00+00");
        target.assertWrites("timestamptz", "infinity", "infinity");
        target.assertWrites("timestamptz", "-infinity", "-infinity");
    }

    @Test
    void intervalsFromIsoTextWithSignedParts() throws Exception {
        target.assertWrites("interval", "P1Y2M3DT4H5M6.789S", "1 year 2 mons 3 days 04:05:06.789");
        target.assertWrites("interval", "P-1Y-2M3DT-4H-5M-6.5S", "-1 years -2 mons +3 days -04:05:06.5");
        target.assertWrites("interval", "P0Y0M0DT0H0M-0.000001S", "-00:00:00.000001");
        target.assertWrites("interval", "P0Y0M-1DT24H0M0S", "-1 days +24:00:00");
        target.assertWrites("interval", "P0Y0M0DT0H0M0S", "0");
        target.assertWrites(
                "interval",
                "P178956970Y7M2147483647DT2562047788H0M54.775806S",
                "178956970 years 7 mons 2147483647 days 2562047788:00:54.775806");
        target.assertWrites(
                "interval",
                "P-178956970Y-7M-2147483647DT-2562047788H0M-54.775807S",
                "-178956970 years -7 mons -2147483647 days -2562047788:00:54.775807");
        target.assertWrites("interval", "infinity", "infinity");
        target.assertWrites("interval", "-infinity", "-infinity");
    }

    @Test
    void intervalsFromDebeziumsMicroDurationCount() throws Exception {
        ValueMappings numeric = new ValueMappings(NumericMapping.PRECISE, IntervalMapping.NUMERIC);
        // a month counted as 30.4375 days at the source: the length arrives, not the month
        target.assertWrites("interval", numeric, 2_629_800_000_000L, "730:30:00");
        target.assertWrites("interval", numeric, -93_784_500_001L, "-26:03:04.500001");
        target.assertWrites("interval", numeric, 0L, "0");
        target.assertWrites("interval", numeric, 1_000_000_000_000_000L, "277777:46:40");
    }

    private static int days(int isoYear, int month, int day) {
        return Math.toIntExact(LocalDate.of(isoYear, month, day).toEpochDay());
    }

    private static long micros(int isoYear, int month, int day, int hour, int minute, int second, int micro) {
        LocalDateTime t = LocalDateTime.of(isoYear, month, day, hour, minute, second, micro * 1000);
        return t.toEpochSecond(ZoneOffset.UTC) * 1_000_000L + micro;
    }
}
