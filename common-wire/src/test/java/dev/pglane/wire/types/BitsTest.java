package dev.pglane.wire.types;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

class BitsTest {

    @Test
    void littleEndianLikeDebezium() {
        assertArrayEquals(new byte[] {0x05}, Bits.encode("101"));
        assertArrayEquals(new byte[] {0x01, 0x01}, Bits.encode("0000000100000001"));
        assertArrayEquals(new byte[] {0x00, 0x00}, Bits.encode("0000000000"), "padded to the declared length");
    }

    @Test
    void roundTripsKeepingLeadingZeros() {
        for (String bits : new String[] {"0", "1", "0010", "1000000001", "0000000000000000000001"}) {
            assertEquals(bits, Bits.decode(Bits.encode(bits), bits.length()));
        }
        assertEquals("10", Bits.builder(10).build().parameters().get(Bits.LENGTH));
    }

    @Test
    void rejectsOtherCharacters() {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> Bits.encode("10x"));
        assertTrue(e.getMessage().contains("'10x'"), e.getMessage());
        assertThrows(IllegalArgumentException.class, () -> Bits.decode(new byte[1], 9));
    }
}
