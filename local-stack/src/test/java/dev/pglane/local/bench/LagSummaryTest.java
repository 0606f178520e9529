package dev.pglane.local.bench;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.function.DoubleUnaryOperator;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

@Timeout(value = 10, unit = TimeUnit.SECONDS)
class LagSummaryTest {
    /** A reading every second over a 60-second load, the lag a function of the time. */
    private static List<LagSummary.Sample> samples(DoubleUnaryOperator lag) {
        List<LagSummary.Sample> samples = new ArrayList<>();
        for (int at = 1; at <= 60; at++) {
            samples.add(new LagSummary.Sample(at, lag.applyAsDouble(at)));
        }
        return samples;
    }

    @Test
    void aFlatLagWithNoiseIsBounded() {
        LagSummary lag = LagSummary.of(samples(at -> at % 2 == 0 ? 0.3 : 0.9), 60);

        assertTrue(lag.bounded());
        assertEquals(0.9, lag.maxSeconds());
        assertEquals(0.3, lag.endSeconds());
        assertEquals(60, lag.samples().size());
    }

    @Test
    void aLagThatGrowsWithTimeIsNot() {
        LagSummary lag = LagSummary.of(samples(at -> at / 10.0), 60);

        assertFalse(lag.bounded());
        assertEquals(1.05, lag.firstThirdMean(), 1e-9);
        assertEquals(5.0, lag.lastThirdMean(), 1e-9);
        assertEquals(6.0, lag.maxSeconds());
        assertEquals(List.of(0.5, 1.0, 1.5, 2.0, 2.5, 3.0, 3.5, 4.0, 4.5, 5.0, 5.5, 6.0), lag.series());
    }

    @Test
    void noReadingIsAnError() {
        assertThrows(IllegalArgumentException.class, () -> LagSummary.of(List.of(), 60));
    }
}
