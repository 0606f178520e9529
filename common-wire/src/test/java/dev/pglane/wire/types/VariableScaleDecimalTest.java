package dev.pglane.wire.types;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

import java.math.BigDecimal;
import org.apache.kafka.connect.data.Schema;
import org.apache.kafka.connect.data.Struct;
import org.junit.jupiter.api.Test;

class VariableScaleDecimalTest {

    @Test
    void unscaledTwosComplementBytesAndScale() {
        Schema schema = VariableScaleDecimal.builder().optional().build();
        Struct struct = VariableScaleDecimal.encode(new BigDecimal("-1.29"), schema);
        assertEquals(2, struct.getInt32("scale"));
        assertArrayEquals(new byte[] {(byte) 0xFF, (byte) 0x7F}, struct.getBytes("value"));
        assertEquals(new BigDecimal("-1.29"), VariableScaleDecimal.decode(struct));
        assertEquals("io.debezium.data.VariableScaleDecimal", schema.name());
    }
}
