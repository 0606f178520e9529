package dev.pglane.wire;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class LsnTest {

    @Test
    void parsesAndFormatsPostgresText() {
        Lsn lsn = Lsn.parse("16/B374D848");
        assertEquals(0x16B374D848L, lsn.asLong());
        assertEquals("16/B374D848", lsn.toString());
        assertEquals("16/B374D848", Lsn.parse("16/b374d848").toString());
        assertEquals("0/0", Lsn.valueOf(0).toString());
        assertEquals("0/1", Lsn.parse("00000000/00000001").toString());
    }

    @Test
    void handlesValuesAboveTwoToTheSixtyThird() {
        Lsn high = Lsn.parse("FFFFFFFF/FFFFFFFF");
        assertEquals(-1L, high.asLong());
        assertEquals("FFFFFFFF/FFFFFFFF", high.toString());
        Lsn justAbove = Lsn.parse("80000000/0");
        assertEquals(Long.MIN_VALUE, justAbove.asLong());
        assertTrue(justAbove.compareTo(Lsn.parse("7FFFFFFF/FFFFFFFF")) > 0, "unsigned compare");
        assertTrue(high.compareTo(justAbove) > 0);
        assertEquals(Lsn.parse("80000000/10"), justAbove.plus(16));
        assertEquals(16, Lsn.parse("80000000/10").bytesSince(justAbove));
        assertEquals(1, justAbove.bytesSince(Lsn.parse("7FFFFFFF/FFFFFFFF")));
    }

    @Test
    void comparesMaxAndArithmetic() {
        Lsn a = Lsn.parse("1/0");
        Lsn b = Lsn.parse("0/FFFFFFFF");
        assertTrue(a.compareTo(b) > 0);
        assertSame(a, Lsn.max(a, b));
        assertSame(a, Lsn.max(b, a));
        assertEquals(a, b.plus(1));
        assertEquals(1, a.bytesSince(b));
        assertEquals(0, a.bytesSince(a));
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> b.bytesSince(a));
        assertTrue(e.getMessage().contains("1/0"), e.getMessage());
    }

    @Test
    void invalidIsZero() {
        assertFalse(Lsn.INVALID.isValid());
        assertSame(Lsn.INVALID, Lsn.valueOf(0));
        assertSame(Lsn.INVALID, Lsn.parse("0/0"));
        assertTrue(Lsn.parse("0/1").isValid());
    }

    @Test
    void equalsAndHashCodeFollowTheValue() {
        assertEquals(Lsn.parse("A/B"), Lsn.valueOf(0xA0000000BL));
        assertEquals(Lsn.parse("A/B").hashCode(), Lsn.valueOf(0xA0000000BL).hashCode());
        assertFalse(Lsn.parse("A/B").equals(Lsn.parse("B/A")));
    }

    @ParameterizedTest
    @ValueSource(
            strings = {"", "/", "16", "16/", "/B3", "G/0", "1/2/3", "-1/0", "+1/0", "123456789/0", "0/123456789", " 1/0"
            })
    void rejectsMalformedTextNamingIt(String text) {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> Lsn.parse(text));
        assertTrue(e.getMessage().contains("'" + text + "'"), e.getMessage());
    }

    @Test
    void rejectsNull() {
        assertThrows(IllegalArgumentException.class, () -> Lsn.parse(null));
    }
}
