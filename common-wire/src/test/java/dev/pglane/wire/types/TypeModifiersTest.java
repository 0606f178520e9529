package dev.pglane.wire.types;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import org.junit.jupiter.api.Test;

/** Expected texts are what PostgreSQL's format_type(oid, typmod) prints. */
class TypeModifiersTest {

    @Test
    void formatsLikeFormatType() {
        assertEquals("numeric(10,2)", TypeModifiers.format(PgType.NUMERIC, (10 << 16 | 2) + 4));
        assertEquals("numeric", TypeModifiers.format(PgType.NUMERIC, -1));
        assertEquals("character varying(20)", TypeModifiers.format(PgType.VARCHAR, 24));
        assertEquals("character varying", TypeModifiers.format(PgType.VARCHAR, -1));
        assertEquals("character(3)", TypeModifiers.format(PgType.BPCHAR, 7));
        assertEquals("bpchar", TypeModifiers.format(PgType.BPCHAR, -1));
        assertEquals("bit(5)", TypeModifiers.format(PgType.BIT, 5));
        assertEquals("bit varying(9)", TypeModifiers.format(PgType.VARBIT, 9));
        assertEquals("timestamp(3) without time zone", TypeModifiers.format(PgType.TIMESTAMP, 3));
        assertEquals("timestamp with time zone", TypeModifiers.format(PgType.TIMESTAMPTZ, -1));
        assertEquals("time(0) with time zone", TypeModifiers.format(PgType.TIMETZ, 0));
        assertEquals("integer", TypeModifiers.format(PgType.INT4, -1));
        assertEquals("double precision", TypeModifiers.format(PgType.FLOAT8, -1));
        assertEquals("\"char\"", TypeModifiers.format(PgType.CHAR, -1));
    }

    @Test
    void formatsIntervalFieldsAndPrecision() {
        assertEquals("interval", TypeModifiers.format(PgType.INTERVAL, -1));
        assertEquals("interval(3)", TypeModifiers.format(PgType.INTERVAL, 0x7FFF << 16 | 3));
        assertEquals("interval year to month", TypeModifiers.format(PgType.INTERVAL, (1 << 2 | 1 << 1) << 16 | 0xFFFF));
        assertEquals("interval day to second(2)", TypeModifiers.format(PgType.INTERVAL, (1 << 3 | 7 << 10) << 16 | 2));
        assertThrows(IllegalArgumentException.class, () -> TypeModifiers.format(PgType.INTERVAL, 1 << 16 | 0xFFFF));
    }

    @Test
    void decodesNumericModifiersIncludingNegativeScale() {
        int typmod = (10 << 16 | 2) + 4;
        assertEquals(10, TypeModifiers.numericPrecision(typmod));
        assertEquals(2, TypeModifiers.numericScale(typmod));
        int negative = (5 << 16 | (-3 & 0x7FF)) + 4;
        assertEquals(-3, TypeModifiers.numericScale(negative));
        assertEquals(-1, TypeModifiers.numericPrecision(-1));
    }

    @Test
    void describesBuiltinsAndArraysFromOid() {
        PgColumnType array = PgColumnType.of(1015, 24);
        assertEquals("_varchar", array.name());
        assertEquals("character varying(20)[]", array.formatted());
        assertEquals(PgType.VARCHAR, array.element().builtin());
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> PgColumnType.of(16_384, -1));
        assertEquals("OID 16384 is not a built-in type; describe it with named()", e.getMessage());
    }
}
