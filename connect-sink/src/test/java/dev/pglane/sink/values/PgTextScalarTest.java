package dev.pglane.sink.values;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.pglane.wire.types.GeoPoint;
import dev.pglane.wire.types.NumericMapping;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.connect.data.Schema;
import org.apache.kafka.connect.data.Struct;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * Every scalar type family other than numbers and times, written through {@link PgText} into a real PostgreSQL 17
 * column: the Connect value the wire contract (docs/wire-format.md §7) says the source sends for a known value must
 * store exactly that value.
 */
@Timeout(value = 2, unit = TimeUnit.MINUTES)
class PgTextScalarTest {

    @RegisterExtension
    static final RoundTripServer target = new RoundTripServer();

    @Test
    void booleansAndBitFlags() throws Exception {
        assertEquals("t", target.assertWrites("boolean", true, "true"));
        assertEquals("f", target.assertWrites("boolean", false, "false"));
        assertEquals("1", target.assertWrites("bit(1)", true, "1"));
        assertEquals("0", target.assertWrites("bit(1)", false, "0"));
    }

    @Test
    void integersAtTheirLimits() throws Exception {
        target.assertWrites("smallint", (short) -32768, "-32768");
        target.assertWrites("integer", Integer.MIN_VALUE, "-2147483648");
        target.assertWrites("bigint", Long.MAX_VALUE, "9223372036854775807");
        target.assertWrites("oid", 4294967295L, "4294967295");
        target.assertWrites("xid8", Long.MAX_VALUE, "9223372036854775807");
        target.assertWrites("positive", 7, "7");
    }

    @Test
    void floatsKeepEveryBit() throws Exception {
        target.assertWrites("real", 0.1f, "0.1");
        target.assertWrites("real", Float.MIN_VALUE, "1.4e-45");
        target.assertWrites("real", Float.MAX_VALUE, "3.4028235e38");
        target.assertWrites("double precision", 0.1, "0.1");
        target.assertWrites("double precision", Double.MIN_VALUE, "4.9e-324");
        target.assertWrites("double precision", -Double.MAX_VALUE, "-1.7976931348623157e308");
        target.assertWrites("double precision", -0.0, "-0");
    }

    @Test
    void stringsPassThroughWithQuotesBackslashesAndUnicode() throws Exception {
        String tricky = "it's \"quoted\", \\back\\slash, {braces}, żółw 🐢\nnew line\ttab";
        assertEquals(tricky, target.assertWrites("text", tricky, tricky));
        assertEquals("", target.assertWrites("text", "", ""));
        target.assertWrites("character varying(80)", tricky, tricky);
        target.assertWrites("character(5)", "ab   ", "ab");
        target.assertWrites("\"char\"", "x", "x");
        target.assertWrites("name", "a name", "a name");
        target.assertWrites("citext", "MiXeD", "MiXeD");
        target.assertWrites("text", "NULL", "NULL");
        assertEquals("NULL", target.text("SELECT c FROM written WHERE c IS NOT NULL"));
    }

    @Test
    void byteaInHexWithZeroBytes() throws Exception {
        byte[] bytes = {0, 1, (byte) 0xff, 0, '\\', '\''};
        assertEquals("\\x0001ff005c27", target.assertWrites("bytea", bytes, "\\x0001ff005c27"));
        target.assertWrites("bytea", new byte[0], "\\x");
    }

    @Test
    void semanticStringsPassThrough() throws Exception {
        target.assertWrites("uuid", "a0eebc99-9c0b-4ef8-bb6d-6bb9bd380a11", "a0eebc99-9c0b-4ef8-bb6d-6bb9bd380a11");
        String json = "{\"a\": [1, 2.50, \"x\\\"y\"],  \"b\": null}";
        assertEquals(json, target.assertWrites("json", json, json));
        target.assertWrites("jsonb", json, json);
        target.assertWrites("xml", "<a b=\"1\">x &amp; y</a>", "<a b=\"1\">x &amp; y</a>");
        target.assertWrites("mood", "happy go lucky", "happy go lucky");
        target.assertWrites("tsvector", "'a' 'fat':2 'rat':3", "'a' 'fat':2 'rat':3");
        target.assertWrites("tsquery", "'fat' & ( 'rat' | 'cat' )", "'fat' & ( 'rat' | 'cat' )");
        target.assertWrites("ltree", "Top.Science.Astronomy", "Top.Science.Astronomy");
        target.assertWrites("pg_lsn", "16/B374D848", "16/B374D848");
        target.assertWrites("jsonpath", "$.\"a\"[*]?(@ > 1)", "$.\"a\"[*]?(@ > 1)");
    }

    @Test
    void networkAndGeometricTextsPassThrough() throws Exception {
        String[][] cases = {
            {"inet", "192.168.0.1/24"},
            {"inet", "::1"},
            {"cidr", "10.0.0.0/8"},
            {"macaddr", "08:00:2b:01:02:03"},
            {"macaddr8", "08:00:2b:01:02:03:04:05"},
            {"line", "{1,-1,0}"},
            {"lseg", "[(0,0),(1,1)]"},
            {"box", "(1,1),(0,0)"},
            {"path", "[(0,0),(1,1),(2,0)]"},
            {"polygon", "((0,0),(1,1),(1,0))"},
            {"circle", "<(0,0),2.5>"}
        };
        for (String[] c : cases) {
            target.assertWrites(c[0], c[1], c[1]);
        }
    }

    @Test
    void rangesAndMultirangesPassThrough() throws Exception {
        target.assertWrites("int4range", "[1,10)", "[1,10)");
        target.assertWrites("numrange", "(,2.5]", "(,2.5]");
        target.assertWrites("tstzrange", "[\"2024-03-01 12:00:00+00\",infinity)", "[2024-03-01 12:00+00,infinity)");
        target.assertWrites(
                "datemultirange", "{[2024-01-01,2024-02-01),[2024-03-01,)}", "{[2024-01-01,2024-02-01),[2024-03-01,)}");
        target.assertWrites("int4range", "empty", "empty");
    }

    @Test
    void pointFromItsStruct() throws Exception {
        Schema schema = GeoPoint.builder().optional().build();
        assertEquals(
                "(1.5,-2.25)", target.assertWrites("point", new GeoPoint(1.5, -2.25).toStruct(schema), "(1.5,-2.25)"));
        target.assertWrites("point", new GeoPoint(1e-300, 0.1).toStruct(schema), "(1e-300,0.1)");
    }

    @Test
    void pointStructWithoutWkbIsEnough() throws Exception {
        Schema schema = GeoPoint.builder().optional().build();
        Struct point = new Struct(schema).put("x", 3.0).put("y", 4.0);
        target.assertWrites("point", point, "(3,4)");
    }

    @Test
    void fixedBitStringsFromLittleEndianBits() throws Exception {
        // "1011000001": bit 0 is the rightmost; byte 0 holds bits 0-7 = 1100 0001, byte 1 holds bits 8-9 = 10.
        byte[] bits = {(byte) 0xC1, 0x02};
        assertEquals("1011000001", target.assertWrites("bit(10)", bits, "1011000001"));
        target.assertWrites("bit(10)", new byte[] {1, 0}, "0000000001");
        target.assertWrites("bit(3)", new byte[] {0}, "000");
        target.assertWrites("bit varying(8)", "101", "101");
        target.assertWrites("bit varying", "", "");
    }

    @Test
    void hstoreFromItsJsonObject() throws Exception {
        String json =
                "{\"a\":\"1\",\"b\":null,\"q\\\"k\":\"v\\\\w\",\"sp ace\":\"=>\",\"NULL\":\"NULL\",\"ü\":\"\\u00e9\\n\"}";
        target.assertWrites(
                "ext.hstore",
                json,
                "\"a\"=>\"1\", \"b\"=>NULL, \"q\\\"k\"=>\"v\\\\w\", \"sp ace\"=>\"=>\","
                        + " \"NULL\"=>\"NULL\", \"ü\"=>\"é\n\"");
        assertEquals("v\\w", target.text("SELECT ext.fetchval(c, 'q\"k') FROM written"));
        assertEquals(
                "true", target.text("SELECT (ext.fetchval(c, 'b') IS NULL AND ext.exist(c, 'b'))::text FROM written"));
        assertEquals("", target.assertWrites("ext.hstore", "{}", ""));
    }

    @Test
    void numericMappingDoesNotChangePlainColumns() throws Exception {
        target.assertWrites("double precision", NumericMapping.STRING, 2.5, "2.5");
    }
}
