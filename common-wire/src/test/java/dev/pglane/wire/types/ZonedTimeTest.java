package dev.pglane.wire.types;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.time.OffsetTime;
import java.time.ZoneOffset;
import org.junit.jupiter.api.Test;

class ZonedTimeTest {

    @Test
    void keepsTheOriginalOffset() {
        OffsetTime value = OffsetTime.of(10, 15, 30, 1000, ZoneOffset.ofHoursMinutes(5, 30));
        assertEquals("10:15:30.000001+05:30", ZonedTime.encode(value));
        assertEquals(value, ZonedTime.decode("10:15:30.000001+05:30"));
        assertEquals("00:00:00.000000Z", ZonedTime.encode(OffsetTime.of(0, 0, 0, 0, ZoneOffset.UTC)));
        OffsetTime seconds = OffsetTime.of(1, 2, 3, 0, ZoneOffset.ofHoursMinutesSeconds(-1, -2, -3));
        assertEquals("01:02:03.000000-01:02:03", ZonedTime.encode(seconds));
        assertEquals(seconds, ZonedTime.decode(ZonedTime.encode(seconds)));
    }

    @Test
    void rejectsTextWithoutOffset() {
        assertThrows(IllegalArgumentException.class, () -> ZonedTime.decode("10:15:30"));
    }
}
