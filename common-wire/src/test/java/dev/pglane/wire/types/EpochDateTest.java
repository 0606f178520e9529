package dev.pglane.wire.types;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.time.LocalDate;
import org.junit.jupiter.api.Test;

class EpochDateTest {

    @Test
    void daysSinceEpoch() {
        assertEquals(0, EpochDate.encode(LocalDate.of(1970, 1, 1)));
        assertEquals(19_783, EpochDate.encode(LocalDate.of(2024, 3, 1)));
        assertEquals(-719_528, EpochDate.encode(LocalDate.of(0, 1, 1)), "1 BC");
        assertEquals(LocalDate.of(2024, 3, 1), EpochDate.decode(19_783));
        assertEquals(LocalDate.of(-4713, 11, 24), EpochDate.decode(EpochDate.encode(LocalDate.of(-4713, 11, 24))));
    }

    @Test
    void infinities() {
        assertEquals(Integer.MAX_VALUE, EpochDate.encode(LocalDate.MAX));
        assertEquals(Integer.MIN_VALUE, EpochDate.encode(LocalDate.MIN));
        assertEquals(LocalDate.MAX, EpochDate.decode(Integer.MAX_VALUE));
        assertEquals(LocalDate.MIN, EpochDate.decode(Integer.MIN_VALUE));
        assertEquals("io.debezium.time.Date", EpochDate.builder().build().name());
    }
}
