package dev.pglane.wire.types;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import org.apache.kafka.connect.data.Schema;
import org.apache.kafka.connect.data.Struct;
import org.junit.jupiter.api.Test;

class GeoPointTest {

    @Test
    void structWithWkb() {
        Schema schema = ColumnSchemas.forColumn(PgColumnType.of(PgType.POINT, -1), false, NumericMapping.PRECISE);
        Struct struct = new GeoPoint(1.5, -2.25).toStruct(schema);
        assertEquals(1.5, struct.getFloat64("x"));
        assertNull(struct.get("srid"));
        assertEquals(new GeoPoint(1.5, -2.25), GeoPoint.fromStruct(struct));
        byte[] expected = ByteBuffer.allocate(21)
                .order(ByteOrder.LITTLE_ENDIAN)
                .put((byte) 1)
                .putInt(1)
                .putDouble(1.5)
                .putDouble(-2.25)
                .array();
        assertArrayEquals(expected, struct.getBytes("wkb"));
    }
}
