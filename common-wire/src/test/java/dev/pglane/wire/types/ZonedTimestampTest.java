package dev.pglane.wire.types;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import org.junit.jupiter.api.Test;

class ZonedTimestampTest {

    @Test
    void utcWithSixFractionDigits() {
        OffsetDateTime berlin = OffsetDateTime.of(2024, 3, 1, 13, 30, 0, 250_000_000, ZoneOffset.ofHours(1));
        assertEquals("2024-03-01T12:30:00.250000Z", ZonedTimestamp.encode(berlin));
        assertEquals(
                berlin.withOffsetSameInstant(ZoneOffset.UTC), ZonedTimestamp.decode("2024-03-01T12:30:00.250000Z"));
        assertEquals(
                "1999-12-31T23:59:59.000001Z",
                ZonedTimestamp.encode(OffsetDateTime.parse("1999-12-31T23:59:59.000001Z")));
    }

    @Test
    void readsOtherIsoForms() {
        OffsetDateTime expected = OffsetDateTime.of(2024, 3, 1, 12, 30, 0, 0, ZoneOffset.UTC);
        assertEquals(expected, ZonedTimestamp.decode("2024-03-01T14:30:00+02:00"));
        assertEquals(expected, ZonedTimestamp.decode("2024-03-01T12:30Z"));
    }

    @Test
    void infinities() {
        assertEquals("infinity", ZonedTimestamp.encode(OffsetDateTime.MAX));
        assertEquals("-infinity", ZonedTimestamp.encode(OffsetDateTime.MIN));
        assertEquals(OffsetDateTime.MAX, ZonedTimestamp.decode("infinity"));
        assertEquals(OffsetDateTime.MIN, ZonedTimestamp.decode("-infinity"));
    }

    @Test
    void rejectsOtherTextNamingIt() {
        IllegalArgumentException e =
                assertThrows(IllegalArgumentException.class, () -> ZonedTimestamp.decode("2024-03-01 12:30:00"));
        assertTrue(e.getMessage().contains("'2024-03-01 12:30:00'"), e.getMessage());
    }
}
