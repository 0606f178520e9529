package dev.pglane.local.bench.html;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

@Timeout(value = 10, unit = TimeUnit.SECONDS)
class ScaleTest {
    @Test
    void theAxisEndsAtARoundNumberAtOrAboveTheLargestValue() {
        assertEquals(new Scale(30_000, List.of(0.0, 10_000.0, 20_000.0, 30_000.0)), Scale.upTo(22_636));
        assertEquals(new Scale(1.0, List.of(0.0, 0.25, 0.5, 0.75, 1.0)), Scale.upTo(0.9));
        assertEquals(8.0, Scale.upTo(8).max());
        assertEquals(1.0, Scale.upTo(0).max(), "nothing to show still has an axis");
    }

    @Test
    void valuesAreGroupedFromAHundredAndOtherwiseKeepThreeSignificantDigits() {
        assertEquals("20,455", Scale.format(20_454.739));
        assertEquals("12.3", Scale.format(12.34));
        assertEquals("0.0812", Scale.format(0.08123));
        assertEquals("2", Scale.format(2.0));
        assertEquals("0", Scale.format(0));
    }
}
