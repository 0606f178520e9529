package dev.pglane.local.bench.sustained;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.ArrayList;
import java.util.List;
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

    @Test
    void theClimbStopsAtTheFirstUnboundedStepAndRunsNoHigherRate() throws Exception {
        List<Integer> asked = new ArrayList<>();

        StepPolicy.Climb climb = StepPolicy.climb(List.of(250, 500, 1000, 2000), rate -> {
            asked.add(rate);
            return step(rate, rate, rate < 1000);
        });

        assertEquals(List.of(250, 500, 1000), asked);
        assertEquals(3, climb.steps().size());
        assertEquals(StepPolicy.Next.STOP_UNBOUNDED, climb.stop());
    }

    @Test
    void theClimbStopsWhenTheLoadSaturatesAndOtherwiseRunsEveryRate() throws Exception {
        StepPolicy.Climb saturated =
                StepPolicy.climb(List.of(500, 1000, 4000), rate -> step(rate, Math.min(rate, 982), true));
        StepPolicy.Climb all = StepPolicy.climb(List.of(500, 1000), rate -> step(rate, rate, true));

        assertEquals(3, saturated.steps().size(), "982 of 1000 is not saturated; 982 of 4000 is");
        assertEquals(StepPolicy.Next.STOP_SATURATED, saturated.stop());
        assertEquals(2, all.steps().size());
        assertEquals(StepPolicy.Next.STOP_LAST, all.stop());
    }
}
