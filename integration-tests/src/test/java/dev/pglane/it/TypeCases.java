package dev.pglane.it;

import static dev.pglane.it.TypeCase.SERVER_TEXT;
import static dev.pglane.it.TypeCase.of;
import static dev.pglane.it.TypeCase.rows;
import static dev.pglane.it.TypeCase.text;

import java.math.BigDecimal;
import java.math.BigInteger;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;

/**
 * The every-type table of {@link SourceTypesIT}: one column per type family of wire-format.md §7, three rows of
 * values (ordinary; special values; extremes) and the value each must arrive as. Expectations come from java.time,
 * BigDecimal and the rules of §7 written out by hand, never from the connector's code.
 */
final class TypeCases {
    static final String DECIMAL = "org.apache.kafka.connect.data.Decimal";
    static final String VARIABLE_SCALE = "io.debezium.data.VariableScaleDecimal";
    static final String JSON = "io.debezium.data.Json";

    private TypeCases() {}

    /** Types that need SQL of their own before the table: an enum, a domain and the hstore extension. */
    static List<String> prerequisites() {
        List<String> statements = new ArrayList<>(List.of(
                "CREATE EXTENSION IF NOT EXISTS hstore",
                "CREATE TYPE mood AS ENUM ('sad', 'ok', 'happy')",
                "CREATE DOMAIN posint AS integer CHECK (VALUE > 0)"));
        statements.addAll(CatalogTypeCases.prerequisites());
        return statements;
    }

    /** {@code CREATE TABLE table}: {@code id integer PRIMARY KEY}, then one column per case. */
    static String createTable(String table, List<TypeCase> cases) {
        return "CREATE TABLE " + table + " (id integer PRIMARY KEY, "
                + cases.stream().map(c -> c.column() + " " + c.sqlType()).collect(Collectors.joining(", "))
                + ")";
    }

    /**
     * The insert of row {@code row} (0-based, id {@code row + 1}) of the literals; the row after the last one the
     * cases have holds NULL in every column.
     */
    static String insert(String table, List<TypeCase> cases, int row) {
        return "INSERT INTO " + table + " VALUES (" + (row + 1) + ", "
                + cases.stream()
                        .map(c -> row < c.literals().size() && c.literals().get(row) != null
                                ? c.literals().get(row)
                                : "NULL")
                        .collect(Collectors.joining(", "))
                + ")";
    }

    static List<TypeCase> all() {
        List<TypeCase> all = new ArrayList<>();
        all.addAll(numbers());
        all.addAll(textAndDocuments());
        all.addAll(dateTime());
        all.addAll(bitsAndNetwork());
        all.addAll(geometryAndRanges());
        all.addAll(userTypesAndArrays());
        all.addAll(CatalogTypeCases.all());
        return all;
    }

    /** Booleans, integers, floating point, numeric and money. */
    private static List<TypeCase> numbers() {
        return List.of(
                of("c_bool", "boolean", null, rows("true", "false", "true"), true, false, true),
                of("c_int2", "smallint", null, rows("-32768", "32767", "0"), (short) -32768, (short) 32767, (short) 0),
                of("c_int4", "integer", null, rows("2147483647", "-1", "0"), 2147483647, -1, 0),
                of(
                        "c_int8",
                        "bigint",
                        null,
                        rows("-9223372036854775808", "9223372036854775807", "0"),
                        Long.MIN_VALUE,
                        Long.MAX_VALUE,
                        0L),
                of("c_oid", "oid", null, rows("4294967295", "0", "1"), 4294967295L, 0L, 1L),
                of("c_real", "real", null, rows("1.5", "'NaN'", "'-Infinity'"), 1.5f, text("NaN"), text("-Infinity")),
                of(
                        "c_double",
                        "double precision",
                        null,
                        rows("-2.25e100", "'Infinity'", "'NaN'"),
                        -2.25e100,
                        text("Infinity"),
                        text("NaN")),
                of(
                        "c_numeric",
                        "numeric(10,2)",
                        DECIMAL,
                        rows("12345678.91", "'NaN'", "-0.5"),
                        new BigDecimal("12345678.91"),
                        text("NaN"),
                        new BigDecimal("-0.50")),
                of(
                        "c_numeric_any",
                        "numeric",
                        VARIABLE_SCALE,
                        rows("3.14159265358979323846", "'Infinity'", "'-Infinity'"),
                        variableScale("3.14159265358979323846"),
                        text("Infinity"),
                        text("-Infinity")),
                of(
                        "c_money",
                        "money",
                        DECIMAL,
                        rows("'1234.56'", "'-0.01'", "'0'"),
                        new BigDecimal("1234.56"),
                        new BigDecimal("-0.01"),
                        new BigDecimal("0.00")));
    }

    /** Character types, bytea, uuid, the document types and tsvector. */
    private static List<TypeCase> textAndDocuments() {
        return List.of(
                of("c_char", "\"char\"", null, rows("'x'", "'y'", "'z'"), "x", "y", "z"),
                of("c_bpchar", "char(5)", null, rows("'ab'", "'abcde'", "''"), "ab   ", "abcde", "     "),
                of("c_varchar", "varchar(20)", null, rows("'héllo'", "''", "'x'"), "héllo", "", "x"),
                of(
                        "c_text",
                        "text",
                        null,
                        rows("E'line1\\nline2 ✓'", "'it''s'", "'{\"not\": \"json\"}'"),
                        "line1\nline2 ✓",
                        "it's",
                        "{\"not\": \"json\"}"),
                of("c_name", "name", null, rows("'nm'", "'Mixed Case'", "''"), "nm", "Mixed Case", ""),
                of("c_bytea", "bytea", null, rows("'\\x00ff10'", "'\\x'", "'\\x7f'"), "00ff10", "", "7f"),
                of(
                        "c_uuid",
                        "uuid",
                        "io.debezium.data.Uuid",
                        rows(
                                "'A0EEBC99-9C0B-4EF8-BB6D-6BB9BD380A11'",
                                "'00000000-0000-0000-0000-000000000000'",
                                "'{a0eebc999c0b4ef8bb6d6bb9bd380a12}'"),
                        "a0eebc99-9c0b-4ef8-bb6d-6bb9bd380a11",
                        "00000000-0000-0000-0000-000000000000",
                        "a0eebc99-9c0b-4ef8-bb6d-6bb9bd380a12"),
                of(
                        "c_json",
                        "json",
                        JSON,
                        rows("'{\"b\": 1,  \"a\": [1, 2]}'", "'[]'", "'null'"),
                        SERVER_TEXT,
                        SERVER_TEXT,
                        SERVER_TEXT),
                of(
                        "c_jsonb",
                        "jsonb",
                        JSON,
                        rows("'{\"b\": 1,  \"a\": [1, 2]}'", "'\"s\"'", "'{}'"),
                        SERVER_TEXT,
                        SERVER_TEXT,
                        SERVER_TEXT),
                of(
                        "c_hstore",
                        "hstore",
                        JSON,
                        rows("'a=>1, b=>NULL'", "''", "'\"k y\"=>\"v,w\"'"),
                        new TypeCase.JsonText("{\"a\": \"1\", \"b\": null}"),
                        new TypeCase.JsonText("{}"),
                        new TypeCase.JsonText("{\"k y\": \"v,w\"}")),
                of(
                        "c_xml",
                        "xml",
                        "io.debezium.data.Xml",
                        rows("'<a>x</a>'", "'<b/>'", "'just text'"),
                        SERVER_TEXT,
                        SERVER_TEXT,
                        SERVER_TEXT),
                of(
                        "c_tsvector",
                        "tsvector",
                        "io.debezium.data.Tsvector",
                        rows("'a fat cat'", "''", "'x:1A'"),
                        SERVER_TEXT,
                        SERVER_TEXT,
                        SERVER_TEXT));
    }

    /** Dates, times, timestamps and intervals, with infinities, BC dates and a timestamp beyond INT64. */
    private static List<TypeCase> dateTime() {
        return List.of(
                of(
                        "c_date",
                        "date",
                        "io.debezium.time.Date",
                        rows("'2024-02-29'", "'infinity'", "'0044-03-15 BC'"),
                        epochDay(LocalDate.of(2024, 2, 29)),
                        Integer.MAX_VALUE,
                        epochDay(LocalDate.of(-43, 3, 15))),
                of(
                        "c_time",
                        "time(6)",
                        "io.debezium.time.MicroTime",
                        rows("'23:59:59.999999'", "'24:00:00'", "'00:00:00'"),
                        86_399_999_999L,
                        86_400_000_000L,
                        0L),
                of(
                        "c_timetz",
                        "timetz",
                        "io.debezium.time.ZonedTime",
                        rows("'12:30:45.5+05:30'", "'00:00:00+00'", "'01:02:03-01:02:03'"),
                        "12:30:45.500000+05:30",
                        "00:00:00.000000Z",
                        "01:02:03.000000-01:02:03"),
                of(
                        "c_timestamp",
                        "timestamp(6)",
                        "io.debezium.time.MicroTimestamp",
                        rows("'2024-03-01 12:30:00.25'", "'infinity'", "'0001-01-01 00:00:00 BC'"),
                        micros(LocalDateTime.of(2024, 3, 1, 12, 30, 0, 250_000_000)),
                        Long.MAX_VALUE,
                        micros(LocalDateTime.of(0, 1, 1, 0, 0))),
                of(
                        "c_timestamp_far",
                        "timestamp",
                        "io.debezium.time.MicroTimestamp",
                        rows("'294276-12-31 23:59:59'", "'-infinity'", "'1970-01-01'"),
                        text("294276-12-31 23:59:59"),
                        Long.MIN_VALUE,
                        0L),
                of(
                        "c_timestamptz",
                        "timestamptz",
                        "io.debezium.time.ZonedTimestamp",
                        rows("'2024-03-01 12:30:00.25+02'", "'-infinity'", "'0010-06-01 00:00:00+00 BC'"),
                        "2024-03-01T10:30:00.250000Z",
                        "-infinity",
                        "-0009-06-01T00:00:00.000000Z"),
                of(
                        "c_interval",
                        "interval",
                        "io.debezium.time.Interval",
                        rows("'1 year 2 months 3 days 04:05:06.5'", "'-1 years -2 months +3 days -04:05:06.5'", "'0'"),
                        "P1Y2M3DT4H5M6.5S",
                        "P-1Y-2M3DT-4H-5M-6.5S",
                        "P0Y0M0DT0H0M0S"));
    }

    /** Bit strings, network addresses and WAL positions. */
    private static List<TypeCase> bitsAndNetwork() {
        return List.of(
                of("c_bit1", "bit(1)", null, rows("B'1'", "B'0'", "B'1'"), true, false, true),
                of(
                        "c_bit10",
                        "bit(10)",
                        "io.debezium.data.Bits",
                        rows("B'1100000001'", "B'0000000000'", "B'1111111111'"),
                        bits("1100000001"),
                        bits("0000000000"),
                        bits("1111111111")),
                of(
                        "c_varbit",
                        "bit varying(16)",
                        "dev.pglane.data.BitString",
                        rows("B'10110'", "B''", "B'1'"),
                        "10110",
                        "",
                        "1"),
                of(
                        "c_inet",
                        "inet",
                        null,
                        rows("'192.168.0.1/24'", "'::1'", "'10.1.2.3'"),
                        SERVER_TEXT,
                        SERVER_TEXT,
                        SERVER_TEXT),
                of(
                        "c_cidr",
                        "cidr",
                        null,
                        rows("'10.0.0.0/8'", "'2001:db8::/32'", "'192.168.1.0/24'"),
                        SERVER_TEXT,
                        SERVER_TEXT,
                        SERVER_TEXT),
                of(
                        "c_macaddr",
                        "macaddr",
                        null,
                        rows("'08:00:2b:01:02:03'", "'08-00-2B-01-02-04'", "'0800.2b01.0205'"),
                        SERVER_TEXT,
                        SERVER_TEXT,
                        SERVER_TEXT),
                of(
                        "c_pg_lsn",
                        "pg_lsn",
                        null,
                        rows("'16/B374D848'", "'0/0'", "'FFFFFFFF/FFFFFFFF'"),
                        SERVER_TEXT,
                        SERVER_TEXT,
                        SERVER_TEXT));
    }

    /** An enum, a domain, and arrays: one-dimensional ones as lists, others in text_values. */
    private static List<TypeCase> userTypesAndArrays() {
        return List.of(
                of("c_enum", "mood", "io.debezium.data.Enum", rows("'ok'", "'sad'", "'happy'"), "ok", "sad", "happy"),
                of("c_domain", "posint", null, rows("7", "1", "2147483647"), 7, 1, 2147483647),
                of(
                        "c_int_array",
                        "integer[]",
                        null,
                        rows("'{1,NULL,3}'", "'[0:1]={7,8}'", "'{}'"),
                        Arrays.asList(1, null, 3),
                        text("[0:1]={7,8}"),
                        List.of()),
                of(
                        "c_text_array",
                        "text[]",
                        null,
                        rows("ARRAY['a b', 'c,d', NULL, '\"q\"']", "'{}'", "'{x}'"),
                        Arrays.asList("a b", "c,d", null, "\"q\""),
                        List.of(),
                        List.of("x")),
                of(
                        "c_int_matrix",
                        "integer[][]",
                        null,
                        rows("'{{1,2},{3,4}}'", "'{}'", "'{{5}}'"),
                        text("{{1,2},{3,4}}"),
                        List.of(),
                        text("{{5}}")),
                of(
                        "c_decimal_array",
                        "numeric(5,1)[]",
                        DECIMAL,
                        rows("'{1.5,-2}'", "'{}'", "'{NULL}'"),
                        List.of(new BigDecimal("1.5"), new BigDecimal("-2.0")),
                        List.of(),
                        Arrays.asList((Object) null)),
                of(
                        "c_date_array",
                        "date[]",
                        "io.debezium.time.Date",
                        rows("'{2024-01-01,-infinity}'", "'{}'", "'{NULL}'"),
                        List.of(epochDay(LocalDate.of(2024, 1, 1)), Integer.MIN_VALUE),
                        List.of(),
                        Arrays.asList((Object) null)));
    }

    /** Geometric types, ranges and other values that travel as the server's text. */
    private static List<TypeCase> geometryAndRanges() {
        return List.of(
                of(
                        "c_point",
                        "point",
                        "io.debezium.data.geometry.Point",
                        rows("'(1.5,-2)'", "'(0,0)'", "'(-1e10,3.25)'"),
                        point(1.5, -2),
                        point(0, 0),
                        point(-1e10, 3.25)),
                of(
                        "c_point_special",
                        "point",
                        "io.debezium.data.geometry.Point",
                        rows("'(NaN,1)'", "'(1,-Infinity)'", "'(2,3)'"),
                        text("(NaN,1)"),
                        text("(1,-Infinity)"),
                        point(2, 3)),
                of(
                        "c_box",
                        "box",
                        null,
                        rows("'((3,4),(1,2))'", "'(0,0),(0,0)'", "'((-1,-1),(1,1))'"),
                        SERVER_TEXT,
                        SERVER_TEXT,
                        SERVER_TEXT),
                of(
                        "c_polygon",
                        "polygon",
                        null,
                        rows("'((0,0),(1,1),(1,0))'", "'((0,0))'", "'((1,2),(3,4))'"),
                        SERVER_TEXT,
                        SERVER_TEXT,
                        SERVER_TEXT),
                of(
                        "c_circle",
                        "circle",
                        null,
                        rows("'<(1,2),3>'", "'<(0,0),0>'", "'((1,1),0.5)'"),
                        SERVER_TEXT,
                        SERVER_TEXT,
                        SERVER_TEXT),
                of(
                        "c_int4range",
                        "int4range",
                        null,
                        rows("'[1,10)'", "'empty'", "'(,5]'"),
                        SERVER_TEXT,
                        SERVER_TEXT,
                        SERVER_TEXT),
                of(
                        "c_numrange",
                        "numrange",
                        null,
                        rows("'(1.5,2.5]'", "'[,]'", "'[0,0]'"),
                        SERVER_TEXT,
                        SERVER_TEXT,
                        SERVER_TEXT),
                of(
                        "c_daterange",
                        "daterange",
                        null,
                        rows("'[2024-01-01,2024-02-01)'", "'empty'", "'[2024-01-01,infinity)'"),
                        SERVER_TEXT,
                        SERVER_TEXT,
                        SERVER_TEXT),
                of(
                        "c_multirange",
                        "int4multirange",
                        null,
                        rows("'{[1,3),[5,7)}'", "'{}'", "'{[1,2]}'"),
                        SERVER_TEXT,
                        SERVER_TEXT,
                        SERVER_TEXT));
    }

    private static int epochDay(LocalDate date) {
        return Math.toIntExact(date.toEpochDay());
    }

    private static long micros(LocalDateTime time) {
        return time.toEpochSecond(ZoneOffset.UTC) * 1_000_000L + time.getNano() / 1_000;
    }

    /** {@code io.debezium.data.VariableScaleDecimal}: the scale and the unscaled value, two's complement. */
    private static Map<String, Object> variableScale(String decimal) {
        BigDecimal value = new BigDecimal(decimal);
        Map<String, Object> struct = new LinkedHashMap<>();
        struct.put("scale", value.scale());
        struct.put("value", HexFormat.of().formatHex(value.unscaledValue().toByteArray()));
        return struct;
    }

    /** {@code io.debezium.data.Bits}: the bit string as a number, rightmost bit = bit 0, little-endian bytes. */
    private static String bits(String bitString) {
        byte[] bigEndian = new BigInteger(bitString, 2).toByteArray();
        byte[] littleEndian = new byte[(bitString.length() + 7) / 8];
        for (int i = 0; i < littleEndian.length && i < bigEndian.length; i++) {
            littleEndian[i] = bigEndian[bigEndian.length - 1 - i];
        }
        return HexFormat.of().formatHex(littleEndian);
    }

    /** {@code io.debezium.data.geometry.Point}: x, y, the little-endian OGC WKB of the point, no SRID. */
    private static Map<String, Object> point(double x, double y) {
        ByteBuffer wkb = ByteBuffer.allocate(21).order(ByteOrder.LITTLE_ENDIAN);
        wkb.put((byte) 1).putInt(1).putDouble(x).putDouble(y);
        Map<String, Object> struct = new LinkedHashMap<>();
        struct.put("x", x);
        struct.put("y", y);
        struct.put("wkb", HexFormat.of().formatHex(wkb.array()));
        struct.put("srid", null);
        return struct;
    }
}
