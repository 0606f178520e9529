package dev.pglane.local.bench;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

@Timeout(value = 10, unit = TimeUnit.SECONDS)
class AsciiBarsTest {
    @Test
    void barsAreProportionalToTheLargestAndLabelsAligned() {
        List<String> lines = new AsciiBars()
                .bar("native", 20_000)
                .bar("w1", 5_000)
                .bar("w8", 0)
                .render()
                .lines()
                .toList();

        assertEquals("native |" + "#".repeat(50) + " 20,000", lines.get(0));
        assertEquals("w1     |" + "#".repeat(13) + " 5,000", lines.get(1));
        assertEquals("w8     | 0", lines.get(2));
    }
}
