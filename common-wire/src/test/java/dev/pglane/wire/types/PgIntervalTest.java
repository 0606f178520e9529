package dev.pglane.wire.types;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class PgIntervalTest {

    @Test
    void keepsMonthsDaysAndTimeApart() {
        PgInterval value = new PgInterval(14, 3, 4 * 3_600_000_000L + 5 * 60_000_000L + 6_789_000L);
        assertEquals("P1Y2M3DT4H5M6.789S", value.toIso());
        assertEquals(value, PgInterval.parse("P1Y2M3DT4H5M6.789S"));
        assertEquals("P0Y0M30DT0H0M0S", new PgInterval(0, 30, 0).toIso());
        assertEquals("P0Y1M0DT0H0M0S", new PgInterval(1, 0, 0).toIso());
        assertEquals("P0Y0M0DT24H0M0S", new PgInterval(0, 0, 86_400_000_000L).toIso());
    }

    @Test
    void negativeAndMixedSigns() {
        PgInterval value = new PgInterval(-14, 3, -(4 * 3_600_000_000L + 5 * 60_000_000L + 6_500_000L));
        assertEquals("P-1Y-2M3DT-4H-5M-6.5S", value.toIso());
        assertEquals(value, PgInterval.parse(value.toIso()));
        PgInterval halfSecond = new PgInterval(0, 0, -500_000L);
        assertEquals("P0Y0M0DT0H0M-0.5S", halfSecond.toIso());
        assertEquals(halfSecond, PgInterval.parse(halfSecond.toIso()));
        PgInterval microsecond = new PgInterval(0, -1, 1);
        assertEquals("P0Y0M-1DT0H0M0.000001S", microsecond.toIso());
        assertEquals(microsecond, PgInterval.parse(microsecond.toIso()));
    }

    @Test
    void extremesAndInfinities() {
        PgInterval max = new PgInterval(Integer.MAX_VALUE - 1, Integer.MIN_VALUE, Long.MIN_VALUE + 1);
        assertEquals(max, PgInterval.parse(max.toIso()));
        assertEquals("infinity", PgInterval.POSITIVE_INFINITY.toIso());
        assertEquals(PgInterval.NEGATIVE_INFINITY, PgInterval.parse("-infinity"));
    }

    @Test
    void readsShortIsoForms() {
        assertEquals(new PgInterval(0, 14, 0), PgInterval.parse("P2W"));
        assertEquals(new PgInterval(0, 0, 90_000_000L), PgInterval.parse("PT1M30S"));
        assertEquals(new PgInterval(24, 0, 0), PgInterval.parse("P2Y"));
    }

    @ParameterizedTest
    @ValueSource(strings = {"", "P", "PT", "1Y", "P1.5Y", "PT1H2", "P99999999999M", "P1Y2M3DT4H5M6.1234567S"})
    void rejectsMalformedTextNamingIt(String text) {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> PgInterval.parse(text));
        assertTrue(e.getMessage().contains("'" + text + "'"), e.getMessage());
    }
}
