package dev.pglane.wire.types;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.stream.Stream;
import org.apache.kafka.connect.data.Decimal;
import org.apache.kafka.connect.data.Schema;
import org.apache.kafka.connect.data.Schema.Type;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

class ColumnSchemasTest {

    private static final int NUMERIC_10_2 = (10 << 16 | 2) + 4;

    static Stream<Arguments> builtins() {
        return Stream.of(
                Arguments.of(PgType.BOOL, -1, Type.BOOLEAN, null),
                Arguments.of(PgType.INT2, -1, Type.INT16, null),
                Arguments.of(PgType.INT4, -1, Type.INT32, null),
                Arguments.of(PgType.INT8, -1, Type.INT64, null),
                Arguments.of(PgType.OID, -1, Type.INT64, null),
                Arguments.of(PgType.XID8, -1, Type.INT64, null),
                Arguments.of(PgType.FLOAT4, -1, Type.FLOAT32, null),
                Arguments.of(PgType.FLOAT8, -1, Type.FLOAT64, null),
                Arguments.of(PgType.NUMERIC, NUMERIC_10_2, Type.BYTES, Decimal.LOGICAL_NAME),
                Arguments.of(PgType.NUMERIC, -1, Type.STRUCT, VariableScaleDecimal.NAME),
                Arguments.of(PgType.MONEY, -1, Type.BYTES, Decimal.LOGICAL_NAME),
                Arguments.of(PgType.CHAR, -1, Type.STRING, null),
                Arguments.of(PgType.VARCHAR, 24, Type.STRING, null),
                Arguments.of(PgType.BPCHAR, 8, Type.STRING, null),
                Arguments.of(PgType.TEXT, -1, Type.STRING, null),
                Arguments.of(PgType.NAME, -1, Type.STRING, null),
                Arguments.of(PgType.BYTEA, -1, Type.BYTES, null),
                Arguments.of(PgType.UUID, -1, Type.STRING, StringSemantics.UUID),
                Arguments.of(PgType.JSON, -1, Type.STRING, StringSemantics.JSON),
                Arguments.of(PgType.JSONB, -1, Type.STRING, StringSemantics.JSON),
                Arguments.of(PgType.XML, -1, Type.STRING, StringSemantics.XML),
                Arguments.of(PgType.DATE, -1, Type.INT32, EpochDate.NAME),
                Arguments.of(PgType.TIME, 3, Type.INT64, MicroTime.NAME),
                Arguments.of(PgType.TIMETZ, -1, Type.STRING, ZonedTime.NAME),
                Arguments.of(PgType.TIMESTAMP, -1, Type.INT64, MicroTimestamp.NAME),
                Arguments.of(PgType.TIMESTAMPTZ, 6, Type.STRING, ZonedTimestamp.NAME),
                Arguments.of(PgType.INTERVAL, -1, Type.STRING, PgInterval.NAME),
                Arguments.of(PgType.BIT, 1, Type.BOOLEAN, null),
                Arguments.of(PgType.BIT, 12, Type.BYTES, Bits.NAME),
                Arguments.of(PgType.VARBIT, 12, Type.STRING, StringSemantics.BIT_STRING),
                Arguments.of(PgType.INET, -1, Type.STRING, null),
                Arguments.of(PgType.CIDR, -1, Type.STRING, null),
                Arguments.of(PgType.MACADDR, -1, Type.STRING, null),
                Arguments.of(PgType.MACADDR8, -1, Type.STRING, null),
                Arguments.of(PgType.POINT, -1, Type.STRUCT, GeoPoint.NAME),
                Arguments.of(PgType.POLYGON, -1, Type.STRING, null),
                Arguments.of(PgType.CIRCLE, -1, Type.STRING, null),
                Arguments.of(PgType.INT4RANGE, -1, Type.STRING, null),
                Arguments.of(PgType.TSTZMULTIRANGE, -1, Type.STRING, null),
                Arguments.of(PgType.TSVECTOR, -1, Type.STRING, StringSemantics.TSVECTOR),
                Arguments.of(PgType.PG_LSN, -1, Type.STRING, null));
    }

    @ParameterizedTest
    @MethodSource("builtins")
    void mapsBuiltinTypes(PgType type, int typmod, Type expectedType, String expectedName) {
        Schema schema = ColumnSchemas.forColumn(PgColumnType.of(type, typmod), false, NumericMapping.PRECISE);
        assertEquals(expectedType, schema.type());
        assertEquals(expectedName, schema.name());
        assertTrue(schema.isOptional());
        assertEquals(Integer.toString(type.oid()), schema.parameters().get(ColumnParameters.OID));
        assertEquals(TypeModifiers.format(type, typmod), ColumnParameters.pgType(schema));
        assertFalse(ColumnParameters.isKey(schema));
    }

    @Test
    void numericCarriesScaleAndPrecision() {
        Schema schema =
                ColumnSchemas.forColumn(PgColumnType.of(PgType.NUMERIC, NUMERIC_10_2), true, NumericMapping.PRECISE);
        assertEquals("2", schema.parameters().get(Decimal.SCALE_FIELD));
        assertEquals("10", schema.parameters().get(ColumnSchemas.DECIMAL_PRECISION));
        assertEquals("numeric(10,2)", ColumnParameters.pgType(schema));
        assertEquals(1700, ColumnParameters.oid(schema));
        assertTrue(ColumnParameters.isKey(schema));
        Schema money = ColumnSchemas.forColumn(PgColumnType.of(PgType.MONEY, -1), false, NumericMapping.PRECISE);
        assertEquals("2", money.parameters().get(Decimal.SCALE_FIELD));
    }

    @Test
    void numericMappingModes() {
        for (PgType type : List.of(PgType.NUMERIC, PgType.MONEY)) {
            assertEquals(
                    Type.STRING,
                    ColumnSchemas.forColumn(PgColumnType.of(type, -1), false, NumericMapping.STRING)
                            .type());
            assertEquals(
                    Type.FLOAT64,
                    ColumnSchemas.forColumn(PgColumnType.of(type, -1), false, NumericMapping.DOUBLE)
                            .type());
        }
        assertEquals(NumericMapping.DOUBLE, NumericMapping.fromConfigValue("double"));
        assertEquals("precise", NumericMapping.PRECISE.configValue());
    }

    @Test
    void bitsCarryTheirLength() {
        Schema schema = ColumnSchemas.forColumn(PgColumnType.of(PgType.BIT, 12), false, NumericMapping.PRECISE);
        assertEquals("12", schema.parameters().get(Bits.LENGTH));
        assertEquals("bit(12)", ColumnParameters.pgType(schema));
    }

    @Test
    void arraysMapToArraysOfOptionalElements() {
        Schema schema = ColumnSchemas.forColumn(PgColumnType.of(1231, NUMERIC_10_2), false, NumericMapping.PRECISE);
        assertEquals(Type.ARRAY, schema.type());
        assertEquals("numeric(10,2)[]", ColumnParameters.pgType(schema));
        assertEquals(1231, ColumnParameters.oid(schema));
        assertEquals(Decimal.LOGICAL_NAME, schema.valueSchema().name());
        assertTrue(schema.valueSchema().isOptional());
        assertNull(schema.valueSchema().parameters().get(ColumnParameters.TYPE));
        Schema ints = ColumnSchemas.forColumn(PgColumnType.of(1007, -1), false, NumericMapping.PRECISE);
        assertEquals(Type.INT32, ints.valueSchema().type());
        assertEquals("integer[]", ColumnParameters.pgType(ints));
    }

    @Test
    void enumsListTheirLabels() {
        PgColumnType mood = PgColumnType.enumType(16_500, "mood", "mood", List.of("sad", "ok", "happy"));
        Schema schema = ColumnSchemas.forColumn(mood, false, NumericMapping.PRECISE);
        assertEquals(StringSemantics.ENUM, schema.name());
        assertEquals("sad,ok,happy", schema.parameters().get(StringSemantics.ENUM_ALLOWED));
        Schema array = ColumnSchemas.forColumn(PgColumnType.arrayOf(16_499, mood), false, NumericMapping.PRECISE);
        assertEquals(StringSemantics.ENUM, array.valueSchema().name());
        assertEquals("mood[]", ColumnParameters.pgType(array));
    }

    @Test
    void domainsTravelAsTheirBaseType() {
        PgColumnType base = PgColumnType.of(PgType.NUMERIC, NUMERIC_10_2);
        PgColumnType price = PgColumnType.domain(16_600, "price", "price", base);
        PgColumnType nested = PgColumnType.domain(16_601, "positive_price", "positive_price", price);
        Schema schema = ColumnSchemas.forColumn(nested, false, NumericMapping.PRECISE);
        assertEquals(Decimal.LOGICAL_NAME, schema.name());
        assertEquals("numeric(10,2)", ColumnParameters.pgType(schema));
        assertEquals(1700, ColumnParameters.oid(schema));
    }

    @Test
    void extensionTypesByName() {
        Schema hstore = ColumnSchemas.forColumn(
                PgColumnType.named(16_700, "hstore", -1, "hstore"), false, NumericMapping.PRECISE);
        assertEquals(StringSemantics.JSON, hstore.name());
        Schema ltree = ColumnSchemas.forColumn(
                PgColumnType.named(16_701, "ltree", -1, "ltree"), false, NumericMapping.PRECISE);
        assertEquals(StringSemantics.LTREE, ltree.name());
        Schema citext = ColumnSchemas.forColumn(
                PgColumnType.named(16_702, "citext", -1, "citext"), false, NumericMapping.PRECISE);
        assertEquals(Type.STRING, citext.type());
        assertNull(citext.name());
        Schema unknown = ColumnSchemas.forColumn(
                PgColumnType.named(16_703, "geometry", -1, "geometry(Point,4326)"), false, NumericMapping.PRECISE);
        assertEquals(Type.STRING, unknown.type());
        assertEquals("geometry(Point,4326)", ColumnParameters.pgType(unknown));
    }
}
