package dev.pglane.wire.types;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.time.LocalDateTime;
import org.junit.jupiter.api.Test;

class MicroTimestampTest {

    @Test
    void microsecondsSinceEpochKeepPrecision() {
        LocalDateTime value = LocalDateTime.of(2024, 3, 1, 12, 30, 0, 123_456_000);
        assertEquals(1_709_296_200_123_456L, MicroTimestamp.encode(value));
        assertEquals(value, MicroTimestamp.decode(1_709_296_200_123_456L));
        LocalDateTime beforeEpoch = LocalDateTime.of(1969, 12, 31, 23, 59, 59, 999_999_000);
        assertEquals(-1L, MicroTimestamp.encode(beforeEpoch));
        assertEquals(beforeEpoch, MicroTimestamp.decode(-1L));
        LocalDateTime farFuture = LocalDateTime.of(294_246, 12, 31, 23, 59, 59, 999_999_000);
        assertEquals(farFuture, MicroTimestamp.decode(MicroTimestamp.encode(farFuture)));
    }

    @Test
    void infinities() {
        assertEquals(Long.MAX_VALUE, MicroTimestamp.encode(LocalDateTime.MAX));
        assertEquals(Long.MIN_VALUE, MicroTimestamp.encode(LocalDateTime.MIN));
        assertEquals(LocalDateTime.MAX, MicroTimestamp.decode(Long.MAX_VALUE));
        assertEquals(LocalDateTime.MIN, MicroTimestamp.decode(Long.MIN_VALUE));
    }

    @Test
    void lastYearsOfPostgresRangeDoNotFitAndGoToTextValues() {
        assertThrows(ArithmeticException.class, () -> MicroTimestamp.encode(LocalDateTime.of(294_276, 12, 31, 0, 0)));
        LocalDateTime collidesWithInfinity =
                MicroTimestamp.decode(Long.MAX_VALUE - 1).plusNanos(1000);
        assertThrows(ArithmeticException.class, () -> MicroTimestamp.encode(collidesWithInfinity));
    }

    @Test
    void rejectsNanoseconds() {
        assertThrows(
                IllegalArgumentException.class, () -> MicroTimestamp.encode(LocalDateTime.of(2024, 1, 1, 0, 0, 0, 1)));
    }
}
