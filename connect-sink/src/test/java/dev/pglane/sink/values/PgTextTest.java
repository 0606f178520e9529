package dev.pglane.sink.values;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.pglane.wire.types.Bits;
import dev.pglane.wire.types.ColumnSchemas;
import dev.pglane.wire.types.NumericMapping;
import dev.pglane.wire.types.PgColumnType;
import dev.pglane.wire.types.PgType;
import java.nio.ByteBuffer;
import java.util.Arrays;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.connect.data.Schema;
import org.apache.kafka.connect.data.SchemaBuilder;
import org.apache.kafka.connect.errors.DataException;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/** PgText's contract beyond the round trips: NULL, fields without pglane's parameters, and errors that say what. */
@Timeout(value = 1, unit = TimeUnit.MINUTES)
class PgTextTest {

    private static Schema column(PgType type, int typmod) {
        return ColumnSchemas.forColumn(PgColumnType.of(type, typmod), false, NumericMapping.PRECISE);
    }

    @Test
    void nullIsSqlNull() {
        assertNull(PgText.of(column(PgType.INT4, -1), null));
        assertNull(PgText.of(column(PgType.TIMESTAMP, -1), null));
    }

    @Test
    void fieldsWithoutPglaneParametersAreWrittenByTheirConnectType() {
        assertEquals("t", PgText.of(Schema.OPTIONAL_BOOLEAN_SCHEMA, true));
        assertEquals("1.0E10", PgText.of(Schema.OPTIONAL_FLOAT64_SCHEMA, 1e10));
        assertEquals("\\xff", PgText.of(Schema.OPTIONAL_BYTES_SCHEMA, new byte[] {(byte) 0xff}));
        assertEquals(
                "{\"a\",NULL}",
                PgText.of(SchemaBuilder.array(Schema.OPTIONAL_STRING_SCHEMA).build(), Arrays.asList("a", null)));
    }

    @Test
    void bytesMayArriveAsByteBuffers() {
        assertEquals("\\x0102", PgText.of(column(PgType.BYTEA, -1), ByteBuffer.wrap(new byte[] {1, 2})));
        assertEquals("101", PgText.of(Bits.builder(3).build(), ByteBuffer.wrap(new byte[] {5})));
    }

    @Test
    void aValueOfTheWrongClassNamesTheColumnType() {
        DataException e = assertThrows(DataException.class, () -> PgText.of(column(PgType.DATE, -1), "2024-03-01"));
        assertTrue(e.getMessage().contains("String"), e.getMessage());
        assertTrue(e.getMessage().contains("io.debezium.time.Date (date)"), e.getMessage());
    }

    @Test
    void malformedWireValuesFailAsDataExceptions() {
        Schema timestamptz = column(PgType.TIMESTAMPTZ, -1);
        assertThrows(DataException.class, () -> PgText.of(timestamptz, "yesterday"));
        assertThrows(DataException.class, () -> PgText.of(column(PgType.TIME, -1), 86_400_000_001L));
        assertThrows(DataException.class, () -> PgText.of(Bits.builder(9).build(), new byte[] {1}));
        Schema hstore = SchemaBuilder.string()
                .name("io.debezium.data.Json")
                .parameters(Map.of("__pglane.type", "hstore"))
                .build();
        DataException e = assertThrows(DataException.class, () -> PgText.of(hstore, "{\"a\":1}"));
        assertTrue(e.getMessage().contains("hstore"), e.getMessage());
    }

    @Test
    void mapsHaveNoPostgresText() {
        Schema map =
                SchemaBuilder.map(Schema.STRING_SCHEMA, Schema.STRING_SCHEMA).build();
        assertThrows(DataException.class, () -> PgText.of(map, Map.of("a", "b")));
    }
}
