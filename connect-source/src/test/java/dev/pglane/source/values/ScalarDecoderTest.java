package dev.pglane.source.values;

import static dev.pglane.source.values.PgTextServer.literal;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.pglane.wire.types.Bits;
import dev.pglane.wire.types.IntervalMapping;
import dev.pglane.wire.types.MicroDuration;
import dev.pglane.wire.types.NumericMapping;
import dev.pglane.wire.types.PgInterval;
import dev.pglane.wire.types.ValueMappings;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/** Booleans, integers, floats, bytea, bit strings and intervals, as a real server prints them. */
class ScalarDecoderTest {

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

    @Test
    void booleansFromTheOutputFunction() {
        assertEquals(true, probe.value("boolean", "true"));
        assertEquals(false, probe.value("boolean", "false"));
        assertThrows(IllegalArgumentException.class, () -> probe.decodeText("boolean", "true"));
    }

    @Test
    void integersAtTheirBoundaries() {
        assertEquals(Short.MIN_VALUE, probe.value("smallint", "-32768"));
        assertEquals(Short.MAX_VALUE, probe.value("smallint", "32767"));
        assertEquals(Integer.MIN_VALUE, probe.value("integer", "-2147483648"));
        assertEquals(Long.MAX_VALUE, probe.value("bigint", "9223372036854775807"));
        assertEquals(Long.MIN_VALUE, probe.value("bigint", "-9223372036854775808"));
        assertEquals(4294967295L, probe.value("oid", "4294967295"));
        assertEquals(4294967295L, probe.value("xid", "'4294967295'"));
        assertEquals(Long.MAX_VALUE, probe.value("xid8", "'9223372036854775807'"));
        assertTrue(probe.decode("xid8", "'18446744073709551615'").travelsAsText(), "unsigned, past a signed long");
    }

    @Test
    void floatsWithShortestDigits() {
        Map<String, Double> doubles = Map.of("0.1", 0.1, "'-0'", -0.0, "1e300", 1e300, "4.9e-324", Double.MIN_VALUE);
        doubles.forEach((literal, expected) -> {
            Object value = probe.value("double precision", literal);
            assertEquals(expected, value, literal);
            server.assertTrueOnServer(literal(value.toString()) + "::float8 = " + literal + "::float8");
        });
        Map<String, Float> floats = Map.of("3.4028235e38", Float.MAX_VALUE, "0.1", 0.1f);
        floats.forEach((literal, expected) -> {
            Object value = probe.value("real", literal);
            assertEquals(expected, value, literal);
            server.assertTrueOnServer(literal(value.toString()) + "::float4 = " + literal + "::float4");
        });
    }

    @Test
    void floatSpecialsTravelAsText() {
        for (String type : new String[] {"double precision", "real"}) {
            for (String special : new String[] {"NaN", "Infinity", "-Infinity"}) {
                ColumnProbe.Decoded decoded = probe.decode(type, "'" + special + "'");
                assertEquals(special, decoded.text(), type);
                assertTrue(decoded.travelsAsText(), type + " " + special);
            }
        }
    }

    @Test
    void byteaInHexFormat() {
        assertArrayEquals(new byte[0], (byte[]) probe.value("bytea", "''"));
        byte[] bytes = (byte[]) probe.value("bytea", "'\\x00ff7f80deadbeef'");
        assertArrayEquals(HexFormat.of().parseHex("00ff7f80deadbeef"), bytes);
        server.assertTrueOnServer(
                "decode('" + HexFormat.of().formatHex(bytes) + "', 'hex') = '\\x00ff7f80deadbeef'::bytea");
        assertThrows(IllegalArgumentException.class, () -> probe.decodeText("bytea", "abc"));
    }

    @Test
    void bitOneIsAFlagLongerBitStringsAreBitsAndVaryingOnesText() {
        assertEquals(true, probe.value("bit(1)", "B'1'"));
        assertEquals(false, probe.value("bit(1)", "B'0'"));
        byte[] bits = (byte[]) probe.value("bit(12)", "B'101100111010'");
        assertArrayEquals(new byte[] {(byte) 0b0011_1010, 0b1011}, bits);
        server.assertTrueOnServer("B'" + Bits.decode(bits, 12) + "'::bit(12) = B'101100111010'::bit(12)");
        byte[] leadingZeros = (byte[]) probe.value("bit(12)", "B'000000000001'");
        assertEquals("000000000001", Bits.decode(leadingZeros, 12));
        assertEquals("10101", probe.value("bit varying(8)", "B'10101'"));
        assertEquals("", probe.value("bit varying", "B''"));
    }

    @Test
    void intervalsInIso8601WithEachPartSigned() {
        assertInterval("'1 year 2 mons 3 days 04:05:06.5'", 14, 3, 14_706_500_000L);
        assertInterval("'-1 year -2 mons +3 days -04:05:06.5'", -14, 3, -14_706_500_000L);
        assertInterval("'0'", 0, 0, 0);
        assertInterval("'-0.5 sec'", 0, 0, -500_000);
        assertInterval("'100 hours'", 0, 0, 360_000_000_000L);
        assertInterval("'-1 day +1 sec'", 0, -1, 1_000_000);
        assertInterval("'1 mon -0.000001 sec'", 1, 0, -1);
        assertInterval("'-178000000 years'", -2_136_000_000, 0, 0);
        assertEquals("infinity", probe.value("interval", "'infinity'"));
        assertEquals("-infinity", probe.value("interval", "'-infinity'"));
    }

    @Test
    void intervalsAsDebeziumsMicroDurationCount() {
        ColumnProbe numeric =
                new ColumnProbe(server, new ValueMappings(NumericMapping.PRECISE, IntervalMapping.NUMERIC));
        assertEquals(
                MicroDuration.NAME,
                numeric.decode("interval", "'1 day'").schema().name());
        // Debezium's count: a month is 30.4375 days, a year 365.25
        assertEquals(2_629_800_000_000L, numeric.value("interval", "'1 mon'"));
        assertEquals(31_557_600_000_000L, numeric.value("interval", "'1 year'"));
        assertEquals(93_784_500_000L, numeric.value("interval", "'1 day 02:03:04.5'"));
        assertEquals(-93_784_500_001L, numeric.value("interval", "'-1 day -02:03:04.500001'"));
        assertEquals(0L, numeric.value("interval", "'0'"));
        assertTrue(numeric.decode("interval", "'infinity'").travelsAsText());
        assertTrue(numeric.decode("interval", "'178000000 years'").travelsAsText(), "beyond a long of microseconds");
        assertEquals(
                List.of(86_400_000_000L), numeric.value("interval[]", "ARRAY['1 day'::interval]"), "array elements");
    }

    private static void assertInterval(String literal, int months, int days, long micros) {
        String iso = (String) probe.value("interval", literal);
        assertEquals(new PgInterval(months, days, micros), PgInterval.parse(iso), literal);
        server.assertTrueOnServer(literal(iso) + "::interval::text = " + literal + "::interval::text");
    }
}
