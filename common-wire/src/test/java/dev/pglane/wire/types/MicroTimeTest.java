package dev.pglane.wire.types;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.time.LocalTime;
import org.junit.jupiter.api.Test;

class MicroTimeTest {

    @Test
    void microsecondsSinceMidnight() {
        assertEquals(45_296_000_001L, MicroTime.encode(LocalTime.of(12, 34, 56, 1000)));
        assertEquals(LocalTime.of(12, 34, 56, 1000), MicroTime.decode(45_296_000_001L));
        assertEquals(LocalTime.MIDNIGHT, MicroTime.decode(0));
        assertEquals(86_399_999_999L, MicroTime.encode(LocalTime.of(23, 59, 59, 999_999_000)));
    }

    @Test
    void endOfDayTravelsAndFormatsAsPostgresDoes() {
        assertEquals(86_400_000_000L, MicroTime.END_OF_DAY);
        assertEquals("24:00:00", MicroTime.format(MicroTime.END_OF_DAY));
        assertEquals("12:34:56.000001", MicroTime.format(45_296_000_001L));
        assertEquals("00:00:00.5", MicroTime.format(500_000L));
        IllegalArgumentException e =
                assertThrows(IllegalArgumentException.class, () -> MicroTime.decode(MicroTime.END_OF_DAY));
        assertEquals("24:00:00 has no LocalTime; use MicroTime.format", e.getMessage());
        assertThrows(IllegalArgumentException.class, () -> MicroTime.format(-1));
        assertThrows(IllegalArgumentException.class, () -> MicroTime.decode(MicroTime.END_OF_DAY + 1));
    }
}
