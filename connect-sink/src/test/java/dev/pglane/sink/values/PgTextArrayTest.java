package dev.pglane.sink.values;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.pglane.wire.types.GeoPoint;
import dev.pglane.wire.types.NumericMapping;
import dev.pglane.wire.types.VariableScaleDecimal;
import java.math.BigDecimal;
import java.time.LocalDate;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.connect.data.Schema;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * One-dimensional arrays of every family written through {@link PgText} into a real PostgreSQL 17 column: elements
 * rendered as their type's text, quoted and escaped, NULL elements bare, {@code box} with its {@code ;} delimiter.
 */
@Timeout(value = 2, unit = TimeUnit.MINUTES)
class PgTextArrayTest {

    @RegisterExtension
    static final RoundTripServer target = new RoundTripServer();

    @Test
    void textElementsWithSpecialCharactersAndNulls() throws Exception {
        List<String> values =
                Arrays.asList("a b", "x\"y", null, "NULL", "", "{}", "back\\slash", "comma,semi;", "żółw 🐢");
        String text = target.assertWrites(
                "text[]",
                values,
                "{\"a b\",\"x\\\"y\",NULL,\"NULL\",\"\",\"{}\",\"back\\\\slash\",\"comma,semi;\",\"żółw 🐢\"}");
        assertEquals(
                "{\"a b\",\"x\\\"y\",NULL,\"NULL\",\"\",\"{}\",\"back\\\\slash\",\"comma,semi;\",\"żółw 🐢\"}", text);
        for (int i = 0; i < values.size(); i++) {
            assertEquals(values.get(i), target.text("SELECT c[" + (i + 1) + "] FROM written"));
        }
        target.assertWrites("character varying(5)[]", List.of("ab", "a\\b"), "{ab,\"a\\\\b\"}");
    }

    @Test
    void emptyArrays() throws Exception {
        assertEquals("{}", target.assertWrites("integer[]", List.of(), "{}"));
        target.assertWrites("text[]", List.of(), "{}");
    }

    @Test
    void scalarElements() throws Exception {
        target.assertWrites("integer[]", Arrays.asList(1, null, -3), "{1,NULL,-3}");
        target.assertWrites("positive[]", List.of(1, 2), "{1,2}");
        target.assertWrites("boolean[]", Arrays.asList(true, false, null), "{t,f,NULL}");
        target.assertWrites("bit(1)[]", List.of(true, false), "{1,0}");
        target.assertWrites("bit(4)[]", List.of(new byte[] {0x0A}, new byte[] {0x01}), "{1010,0001}");
        target.assertWrites("double precision[]", List.of(0.1, -0.0, 1e300), "{0.1,-0,1e300}");
        target.assertWrites(
                "bytea[]",
                Arrays.asList(new byte[] {0, (byte) 0xff}, null, new byte[0]),
                "{\"\\\\x00ff\",NULL,\"\\\\x\"}");
        target.assertWrites(
                "uuid[]", List.of("a0eebc99-9c0b-4ef8-bb6d-6bb9bd380a11"), "{a0eebc99-9c0b-4ef8-bb6d-6bb9bd380a11}");
        target.assertWrites("mood[]", List.of("happy go lucky", "sad"), "{\"happy go lucky\",sad}");
        target.assertWrites("json[]", List.of("{\"k\": \"v\\\"q\"}"), "{\"{\\\"k\\\": \\\"v\\\\\\\"q\\\"}\"}");
        target.assertWrites("ltree[]", List.of("a.b", "c"), "{a.b,c}");
    }

    @Test
    void numericElements() throws Exception {
        target.assertWrites("numeric(10,2)[]", Arrays.asList(new BigDecimal("1.50"), null), "{1.50,NULL}");
        Schema variable = VariableScaleDecimal.builder().optional().build();
        target.assertWrites(
                "numeric[]", List.of(VariableScaleDecimal.encode(new BigDecimal("-0.001"), variable)), "{-0.001}");
        target.assertWrites("numeric[]", NumericMapping.STRING, List.of("NaN", "1.5"), "{NaN,1.5}");
        target.assertWrites("numeric[]", NumericMapping.DOUBLE, List.of(1e20), "{100000000000000000000}");
        target.assertWrites("money[]", List.of(new BigDecimal("-1.25")), "{-1.25}");
    }

    @Test
    void temporalElements() throws Exception {
        target.assertWrites(
                "date[]",
                List.of((int) LocalDate.of(-43, 3, 15).toEpochDay(), Integer.MAX_VALUE),
                "{\"0044-03-15 BC\",infinity}");
        target.assertWrites(
                "timestamp[]",
                List.of(1_709_296_200_250_001L, Long.MIN_VALUE),
                "{\"2024-03-01 12:30:00.250001\",-infinity}");
        target.assertWrites(
                "timestamptz[]",
                List.of("2024-03-01T12:30:00.250000Z", "infinity"),
                "{\"2024-03-01 12:30:00.25+00\",infinity}");
        target.assertWrites("time[]", List.of(86_400_000_000L, 1L), "{24:00:00,00:00:00.000001}");
        target.assertWrites("timetz[]", List.of("10:15:30.000000Z"), "{10:15:30+00}");
        target.assertWrites(
                "interval[]", List.of("P-1Y-2M3DT-4H-5M-6.5S"), "{\"-1 years -2 mons +3 days -04:05:06.5\"}");
        target.assertWrites(
                "tstzrange[]",
                List.of("[\"2024-03-01 12:00:00+00\",infinity)"),
                "{\"[\\\"2024-03-01 12:00:00+00\\\",infinity)\"}");
    }

    @Test
    void geometricElements() throws Exception {
        assertEquals(
                "{\"(1,1),(0,0)\";\"(3,4),(1,2)\"}",
                target.assertWrites("box[]", List.of("(1,1),(0,0)", "(3,4),(1,2)"), "{(1,1),(0,0);(3,4),(1,2)}"));
        Schema point = GeoPoint.builder().optional().build();
        target.assertWrites(
                "point[]", Arrays.asList(new GeoPoint(1.5, -2).toStruct(point), null), "{\"(1.5,-2)\",NULL}");
    }

    @Test
    void hstoreElements() throws Exception {
        target.assertWrites(
                "ext.hstore[]",
                List.of("{\"a\":\"1\",\"b\":null}", "{}"),
                "{\"\\\"a\\\"=>\\\"1\\\", \\\"b\\\"=>NULL\",\"\"}");
        assertEquals(
                "true",
                target.text("SELECT (ext.exist(c[1], 'b') AND ext.fetchval(c[1], 'a') = '1')::text FROM written"));
    }
}
