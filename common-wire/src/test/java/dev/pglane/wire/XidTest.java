package dev.pglane.wire;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

class XidTest {

    @Test
    void wireXidsAreUnsigned() {
        assertEquals(571L, Xid.fromWire(571));
        assertEquals(4_294_967_295L, Xid.fromWire(-1));
        assertEquals(2_147_483_648L, Xid.fromWire(Integer.MIN_VALUE));
    }

    @Test
    void formatsAndParsesDecimal() {
        assertEquals("4294967295", Xid.format(Xid.MAX));
        assertEquals(Xid.MAX, Xid.parse("4294967295"));
        assertEquals(0L, Xid.parse("0"));
    }

    @Test
    void rejectsOutOfRangeNamingTheValue() {
        IllegalArgumentException high = assertThrows(IllegalArgumentException.class, () -> Xid.parse("4294967296"));
        assertTrue(high.getMessage().contains("4294967296"), high.getMessage());
        assertThrows(IllegalArgumentException.class, () -> Xid.format(-1));
        IllegalArgumentException text = assertThrows(IllegalArgumentException.class, () -> Xid.parse("12a"));
        assertTrue(text.getMessage().contains("'12a'"), text.getMessage());
    }
}
