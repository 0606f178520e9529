package dev.pglane.source.values;

import static dev.pglane.source.values.PgTextServer.literal;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.pglane.wire.types.GeoPoint;
import dev.pglane.wire.types.NumericMapping;
import dev.pglane.wire.types.ZonedTimestamp;
import java.math.BigDecimal;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.util.Arrays;
import java.util.List;
import java.util.stream.Collectors;
import org.apache.kafka.connect.data.Struct;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/** Arrays as a real server prints them: quoting, NULLs, delimiters, bounds and dimensions. */
class ArrayDecoderTest {

    private static PgTextServer server;
    private static ColumnProbe probe;

    @BeforeAll
    static void start() {
        server = PgTextServer.start();
        server.execute(
                "CREATE EXTENSION hstore",
                "CREATE TYPE mood AS ENUM ('sad', 'ok', 'happy')",
                "CREATE DOMAIN price AS numeric(10,2)");
        probe = new ColumnProbe(server);
    }

    @AfterAll
    static void stop() throws Exception {
        server.close();
    }

    @Test
    void textElementsWithQuotesCommasBracesAndNulls() {
        List<String> elements =
                Arrays.asList("a\"b", "c,d", "NULL", null, "", " x ", "back\\slash", "{x}", "tab\there", "ü;");
        String expression = "ARRAY["
                + elements.stream().map(e -> e == null ? "NULL" : literal(e)).collect(Collectors.joining(",")) + "]";
        ColumnProbe.Decoded decoded = probe.decode("text[]", expression);
        assertEquals(elements, decoded.value(), decoded.text());
        server.assertTrueOnServer(expression + " IS NOT DISTINCT FROM " + textArray(elements));
    }

    @Test
    void integersBooleansAndTheEmptyArray() {
        assertEquals(List.of(1, -2, Integer.MAX_VALUE), probe.value("integer[]", "'{1,-2,2147483647}'"));
        assertEquals(Arrays.asList(true, null, false), probe.value("boolean[]", "ARRAY[true, NULL, false]"));
        assertEquals(List.of(), probe.value("integer[]", "'{}'"));
        assertEquals(List.of((short) 7), probe.value("smallint[]", "'{7}'"));
    }

    @Test
    void numericElementsFollowTheColumnsTypmodAndMode() {
        assertEquals(
                Arrays.asList(new BigDecimal("1.50"), null, new BigDecimal("-2.00")),
                probe.value("numeric(10,2)[]", "ARRAY[1.5, NULL, -2]"));
        assertEquals(List.of(new BigDecimal("12.50")), probe.value("price[]", "ARRAY[12.5]"));
        ColumnProbe.Decoded nan = probe.decode("numeric[]", "ARRAY[1.5, 'NaN']");
        assertTrue(nan.travelsAsText(), "NaN has no Decimal form, so the whole array travels as text");
        assertEquals("{1.5,NaN}", nan.text());
        ColumnProbe strings = new ColumnProbe(server, NumericMapping.STRING);
        assertEquals(List.of("1.5", "NaN"), strings.value("numeric[]", "ARRAY[1.5, 'NaN']"));
    }

    @Test
    void timestamptzElementsAreQuotedBecauseOfTheirSpace() {
        ColumnProbe.Decoded decoded =
                probe.decode("timestamptz[]", "ARRAY['2024-01-01 00:00:00.5+00'::timestamptz, NULL]");
        assertEquals("{\"2024-01-01 00:00:00.5+00\",NULL}", decoded.text());
        assertEquals(
                Arrays.asList(
                        ZonedTimestamp.encode(OffsetDateTime.of(2024, 1, 1, 0, 0, 0, 500_000_000, ZoneOffset.UTC)),
                        null),
                decoded.value());
    }

    @Test
    void boxArraysUseTheSemicolonDelimiter() {
        ColumnProbe.Decoded decoded = probe.decode("box[]", "ARRAY['((0,0),(1,1))'::box, '((1,1),(2,2))']");
        assertEquals("{(1,1),(0,0);(2,2),(1,1)}", decoded.text());
        assertEquals(List.of("(1,1),(0,0)", "(2,2),(1,1)"), decoded.value());
    }

    @Test
    void elementsOfStructuredAndUserTypes() {
        @SuppressWarnings("unchecked")
        List<Struct> points = (List<Struct>) probe.value("point[]", "ARRAY[point(1,2), NULL, point(-1.5,2.25)]");
        assertEquals(new GeoPoint(1, 2), GeoPoint.fromStruct(points.get(0)));
        assertNull(points.get(1));
        assertEquals(new GeoPoint(-1.5, 2.25), GeoPoint.fromStruct(points.get(2)));
        assertTrue(
                probe.decode("point[]", "ARRAY[point(1,2), point(-1.5,'NaN')]").travelsAsText());
        assertEquals(List.of("sad", "happy"), probe.value("mood[]", "ARRAY['sad','happy']::mood[]"));
        assertEquals(List.of("{\"a\":\"b\"}"), probe.value("hstore[]", "ARRAY['a=>b'::hstore]"));
        @SuppressWarnings("unchecked")
        List<byte[]> bytes = (List<byte[]>) probe.value("bytea[]", "ARRAY['\\x01ff'::bytea]");
        assertArrayEquals(new byte[] {1, (byte) 0xff}, bytes.get(0));
        assertEquals(List.of("P0Y0M1DT0H0M0S"), probe.value("interval[]", "ARRAY['1 day'::interval]"));
    }

    @Test
    void moreDimensionsOrOtherBoundsTravelAsText() {
        for (String expression :
                new String[] {"'{{1,2},{3,4}}'", "'[0:1]={7,8}'", "'[2:3]={7,8}'", "'[1:1][1:2]={{1,2}}'"}) {
            ColumnProbe.Decoded decoded = probe.decode("integer[]", expression);
            assertTrue(decoded.travelsAsText(), decoded.text());
        }
        assertEquals("[0:1]={7,8}", probe.decode("integer[]", "'[0:1]={7,8}'").text());
        assertEquals(List.of(7, 8), new ArrayDecoder(ScalarDecoder.INT32, ',').decode("[1:2]={7,8}"));
    }

    @Test
    void malformedLiteralsAreErrors() {
        ArrayDecoder ints = new ArrayDecoder(ScalarDecoder.INT32, ',');
        for (String text : new String[] {"1,2", "{1,2", "{1,2}x", "{\"1}", "{1,,2}", "[0:1{1}", "{a\"b}"}) {
            assertThrows(IllegalArgumentException.class, () -> ints.decode(text), text);
        }
    }

    private static String textArray(List<String> elements) {
        String items = elements.stream()
                .map(e -> e == null ? "NULL" : "\"" + e.replace("\\", "\\\\").replace("\"", "\\\"") + "\"")
                .collect(Collectors.joining(","));
        return literal("{" + items + "}") + "::text[]";
    }
}
