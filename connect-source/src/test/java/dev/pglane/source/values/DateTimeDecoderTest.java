package dev.pglane.source.values;

import static dev.pglane.source.values.PgTextServer.literal;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.pglane.wire.types.EpochDate;
import dev.pglane.wire.types.MicroTime;
import dev.pglane.wire.types.MicroTimestamp;
import dev.pglane.wire.types.ZonedTimestamp;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.LocalTime;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.time.temporal.ChronoUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * date, time, timetz, timestamp and timestamptz as a real server prints them; expected values computed with
 * java.time, and every value written back through the wire codec and compared on the server.
 */
class DateTimeDecoderTest {

    private static final LocalDateTime EPOCH = LocalDateTime.of(1970, 1, 1, 0, 0);

    private static PgTextServer server;
    private static ColumnProbe probe;

    @BeforeAll
    static void start() {
        server = PgTextServer.start();
        probe = new ColumnProbe(server);
    }

    @AfterAll
    static void stop() throws Exception {
        server.close();
    }

    /** Some tests print timestamptz in another zone, as pgjdbc's TimeZone startup parameter may make it. */
    @AfterEach
    void backToUtc() {
        server.execute("SET TimeZone = 'UTC'");
    }

    @Test
    void datesIncludingBcAndTheInfinities() {
        assertDate("'2024-02-29'", LocalDate.of(2024, 2, 29));
        assertDate("'1969-12-31'", LocalDate.of(1969, 12, 31));
        assertDate("'0044-03-15 BC'", LocalDate.of(-43, 3, 15));
        assertDate("'0001-02-29 BC'", LocalDate.of(0, 2, 29));
        assertDate("'4713-01-01 BC'", LocalDate.of(-4712, 1, 1));
        assertDate("'5874897-12-31'", LocalDate.of(5874897, 12, 31));
        assertEquals(EpochDate.POSITIVE_INFINITY, probe.value("date", "'infinity'"));
        assertEquals(EpochDate.NEGATIVE_INFINITY, probe.value("date", "'-infinity'"));
    }

    @Test
    void timesIncludingEndOfDayAndEveryFractionLength() {
        assertTime("time", "'24:00:00'", MicroTime.END_OF_DAY);
        assertTime("time", "'00:00:00'", 0);
        assertTime(
                "time",
                "'23:59:59.999999'",
                LocalTime.of(23, 59, 59, 999_999_000).toNanoOfDay() / 1000);
        String fraction = "123456";
        for (int digits = 1; digits <= 6; digits++) {
            String literal = "'12:34:56." + fraction.substring(0, digits) + "'";
            long micros = LocalTime.of(12, 34, 56).toNanoOfDay() / 1000
                    + Long.parseLong((fraction.substring(0, digits) + "00000").substring(0, 6));
            assertTime("time", literal, micros);
        }
        assertTime(
                "time(3)",
                "'12:34:56.123456'",
                LocalTime.of(12, 34, 56, 123_000_000).toNanoOfDay() / 1000);
    }

    @Test
    void timetzKeepsItsOffset() {
        assertTimetz("'12:34:56.123456+05:30'", "12:34:56.123456+05:30");
        assertTimetz("'01:02:03-01:02:03'", "01:02:03.000000-01:02:03");
        assertTimetz("'00:00:00+00'", "00:00:00.000000Z");
        assertTimetz("'23:59:59.5-12'", "23:59:59.500000-12:00");
        ColumnProbe.Decoded endOfDay = probe.decode("time with time zone", "'24:00:00+00'");
        assertTrue(endOfDay.travelsAsText());
        assertEquals("24:00:00+00", endOfDay.text());
    }

    @Test
    void timestampsIncludingBcAndTheInfinities() {
        assertTimestamp("'2024-03-01 12:30:00.25'", LocalDateTime.of(2024, 3, 1, 12, 30, 0, 250_000_000));
        assertTimestamp("'1900-01-01 00:00:00.000001'", LocalDateTime.of(1900, 1, 1, 0, 0, 0, 1000));
        assertTimestamp("'0044-03-15 12:00:00 BC'", LocalDateTime.of(-43, 3, 15, 12, 0));
        assertTimestamp("'4713-01-01 00:00:00 BC'", LocalDateTime.of(-4712, 1, 1, 0, 0));
        assertTimestamp("'294247-01-10 04:00:54.775806'", LocalDateTime.of(294247, 1, 10, 4, 0, 54, 775_806_000));
        assertEquals(MicroTimestamp.POSITIVE_INFINITY, probe.value("timestamp", "'infinity'"));
        assertEquals(MicroTimestamp.NEGATIVE_INFINITY, probe.value("timestamp", "'-infinity'"));
    }

    @Test
    void timestampsBeyondInt64MicrosecondsTravelAsText() {
        for (String literal : new String[] {"'294247-01-10 04:00:54.775807'", "'294276-12-31 23:59:59.999999'"}) {
            ColumnProbe.Decoded decoded = probe.decode("timestamp", literal);
            assertTrue(decoded.travelsAsText(), literal);
            assertEquals(literal.replace("'", ""), decoded.text());
        }
    }

    @Test
    void timestamptzInUtcWhateverOffsetTheSessionPrinted() {
        OffsetDateTime expected = OffsetDateTime.of(2024, 3, 1, 7, 0, 0, 250_000_000, ZoneOffset.UTC);
        assertTimestamptz("'2024-03-01 12:30:00.25+05:30'", expected, "2024-03-01 07:00:00.25+00");
        server.execute("SET TimeZone = 'Asia/Kolkata'");
        assertTimestamptz("'2024-03-01 12:30:00.25+05:30'", expected, "2024-03-01 12:30:00.25+05:30");
        server.execute("SET TimeZone = 'Europe/Berlin'");
        assertTimestamptz(
                "'1890-01-01 00:00:00+00'",
                OffsetDateTime.of(1890, 1, 1, 0, 0, 0, 0, ZoneOffset.UTC),
                "1890-01-01 00:53:28+00:53:28");
        assertTimestamptz(
                "'0044-03-15 12:00:00+00 BC'",
                OffsetDateTime.of(-43, 3, 15, 12, 0, 0, 0, ZoneOffset.UTC),
                "0044-03-15 12:53:28+00:53:28 BC");
        server.execute("SET TimeZone = 'America/St_Johns'");
        assertTimestamptz(
                "'2024-07-01 00:00:00.000001+00'",
                OffsetDateTime.of(2024, 7, 1, 0, 0, 0, 1000, ZoneOffset.UTC),
                "2024-06-30 21:30:00.000001-02:30");
        assertEquals("infinity", probe.value("timestamptz", "'infinity'"));
        assertEquals("-infinity", probe.value("timestamptz", "'-infinity'"));
        assertTimestamptz(
                "'294276-12-31 23:59:59.999999+00'",
                OffsetDateTime.of(294276, 12, 31, 23, 59, 59, 999_999_000, ZoneOffset.UTC),
                "294276-12-31 20:29:59.999999-03:30");
    }

    @Test
    void malformedTextIsAnError() {
        assertThrows(IllegalArgumentException.class, () -> PgDateTimeText.date("2024-3-01"));
        assertThrows(IllegalArgumentException.class, () -> PgDateTimeText.time("12:60:00"));
        assertThrows(IllegalArgumentException.class, () -> PgDateTimeText.time("24:00:00.000001"));
        assertThrows(IllegalArgumentException.class, () -> PgDateTimeText.timestamp("2024-03-01T12:00:00"));
        assertThrows(IllegalArgumentException.class, () -> PgDateTimeText.timestampWithOffset("2024-03-01 12:00:00"));
        assertThrows(IllegalArgumentException.class, () -> PgDateTimeText.date("2024-03-01 AD"));
    }

    private static void assertDate(String literal, LocalDate expected) {
        int days = (Integer) probe.value("date", literal);
        assertEquals(Math.toIntExact(expected.toEpochDay()), days, literal);
        server.assertTrueOnServer("'1970-01-01'::date + " + days + " = " + literal + "::date");
    }

    private static void assertTime(String type, String literal, long expected) {
        long micros = (Long) probe.value(type, literal);
        assertEquals(expected, micros, literal);
        server.assertTrueOnServer(literal(MicroTime.format(micros)) + "::time = (" + literal + "::" + type + ")");
    }

    private static void assertTimetz(String literal, String expected) {
        String zoned = (String) probe.value("time with time zone", literal);
        assertEquals(expected, zoned, literal);
        server.assertTrueOnServer(literal(zoned) + "::timetz::text = " + literal + "::timetz::text");
    }

    private static void assertTimestamp(String literal, LocalDateTime expected) {
        long micros = (Long) probe.value("timestamp", literal);
        assertEquals(ChronoUnit.MICROS.between(EPOCH, expected), micros, literal);
        assertEquals(expected, MicroTimestamp.decode(micros));
        server.assertTrueOnServer(wallClock(MicroTimestamp.decode(micros)) + " = " + literal + "::timestamp");
    }

    private static void assertTimestamptz(String literal, OffsetDateTime expected, String printed) {
        ColumnProbe.Decoded decoded = probe.decode("timestamptz", literal);
        assertEquals(printed, decoded.text());
        assertEquals(ZonedTimestamp.encode(expected), decoded.value(), literal);
        OffsetDateTime instant = ZonedTimestamp.decode((String) decoded.value());
        // In UTC, as a timestamp: day arithmetic on a timestamptz would follow the session's zone.
        server.assertTrueOnServer(
                wallClock(instant.toLocalDateTime()) + " = (" + literal + "::timestamptz AT TIME ZONE 'UTC')");
    }

    /** {@code value} as a timestamp computed on the server from the epoch in exact integer steps. */
    private static String wallClock(LocalDateTime value) {
        return "('epoch'::timestamp + '" + value.toLocalDate().toEpochDay() + " days'::interval + '"
                + value.toLocalTime().toNanoOfDay() / 1000 + " microseconds'::interval)";
    }
}
