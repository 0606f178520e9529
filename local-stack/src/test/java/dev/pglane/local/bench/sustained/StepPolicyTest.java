package dev.pglane.local.bench.sustained;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

@Timeout(value = 10, unit = TimeUnit.SECONDS)
class StepPolicyTest {
    static StepLag lag(boolean bounded, double p99) {
        return new StepLag(600, 0, p99 / 2, p99, p99 * 1.5, p99 / 2, p99 / 2, bounded, bounded ? "bounded" : "grew");
    }

    private static StepResult step(int asked, double achieved, boolean bounded) {
        return new StepResult(SustainedSystem.PGLANE_JSON, 1, asked, achieved, 60, lag(bounded, 0.4));
    }

    @Test
    void aBoundedStepThatReachedItsRateStepsUp() {
        assertEquals(StepPolicy.Next.STEP_UP, StepPolicy.after(step(1000, 995, true), false));
    }

    @Test
    void anUnboundedStepStopsTheSystemEvenWhenItReachedItsRate() {
        assertEquals(StepPolicy.Next.STOP_UNBOUNDED, StepPolicy.after(step(1000, 1000, false), false));
    }

    @Test
    void aLoadBelowNinetyPercentOfTheRateAskedStopsTheStepping() {
        assertEquals(StepPolicy.Next.STOP_SATURATED, StepPolicy.after(step(4000, 982, true), false));
        assertEquals(StepPolicy.Next.STEP_UP, StepPolicy.after(step(1000, 900, true), false));
    }

    @Test
    void theLastRateEndsTheStepping() {
        assertEquals(StepPolicy.Next.STOP_LAST, StepPolicy.after(step(4000, 3990, true), true));
    }
}
