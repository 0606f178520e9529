package dev.pglane.local.bench.sustained;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.function.DoubleUnaryOperator;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

@Timeout(value = 10, unit = TimeUnit.SECONDS)
class BoundedRuleTest {
    private static final double STEP = 60;
    private static final BoundedRule RULE = BoundedRule.DEFAULT;

    /** A probe row every 100 ms over the step, each with the lag {@code lag} gives for its commit instant. */
    private static List<ProbeSample> probes(DoubleUnaryOperator lag) {
        List<ProbeSample> samples = new ArrayList<>();
        for (int i = 0; i < STEP * 10; i++) {
            double at = i / 10.0;
            samples.add(new ProbeSample(at, lag.applyAsDouble(at), true));
        }
        return samples;
    }

    @Test
    void aFlatLagWithNoiseIsBoundedAndItsPercentilesComeFromTheHistogram() {
        // 0.2 s, and every tenth row 0.5 s: p50 0.2, p99 0.5, max 0.5
        StepLag lag = RULE.judge(probes(at -> Math.round(at * 10) % 10 == 0 ? 0.5 : 0.2), STEP);

        assertTrue(lag.bounded(), lag.verdict());
        assertEquals("bounded", lag.verdict());
        assertEquals(600, lag.probes());
        assertEquals(0.2, lag.p50Seconds(), 0.001);
        assertEquals(0.5, lag.p99Seconds(), 0.001);
        assertEquals(0.5, lag.maxSeconds(), 0.001);
    }

    @Test
    void aLagThatSettlesInTheFirstThirdAfterAStepUpIsBounded() {
        // from 2 s down to 0.3 s over the first 15 s: the previous step's backlog worked off
        StepLag lag = RULE.judge(probes(at -> at < 15 ? 2 - at * 1.7 / 15 : 0.3), STEP);

        assertTrue(lag.bounded(), lag.verdict());
    }

    @Test
    void aLagGrowingThroughTheStepIsUnboundedThoughItsP99StaysUnderTheCap() {
        // a system applying 97% of the load: 0.03 s more lag each second, 2 s at the end
        StepLag lag = RULE.judge(probes(at -> 0.2 + 0.03 * at), STEP);

        assertFalse(lag.bounded());
        assertTrue(lag.p99Seconds() < RULE.p99Cap(), "p99 " + lag.p99Seconds());
        assertTrue(lag.verdict().startsWith("lag grew from"), lag.verdict());
        assertTrue(lag.lastThirdMean() > lag.middleThirdMean());
    }

    @Test
    void aSmallDriftWithinTheToleranceIsBounded() {
        // 0.005 s/s: the last third's mean 0.1 s above the middle third's, under the 0.25 s margin
        assertTrue(RULE.judge(probes(at -> 0.3 + 0.005 * at), STEP).bounded());
    }

    @Test
    void aFlatButHighLagIsUnboundedByTheCap() {
        StepLag lag = RULE.judge(probes(at -> 6.0), STEP);

        assertFalse(lag.bounded());
        assertEquals("p99 6.00 s over the cap of 5.00 s", lag.verdict());
    }

    @Test
    void aProbeRowNotVisibleAfterTheStepMakesItUnboundedAndCountsWithItsWaitSoFar() {
        List<ProbeSample> samples = new ArrayList<>(probes(at -> 0.2));
        samples.add(new ProbeSample(59.95, 5.1, false));

        StepLag lag = RULE.judge(samples, STEP);

        assertFalse(lag.bounded());
        assertEquals(1, lag.unseen());
        assertEquals(5.1, lag.maxSeconds(), 0.01);
        assertTrue(lag.verdict().startsWith("1 probe row(s) not visible"), lag.verdict());
    }

    @Test
    void aStepWithoutProbeRowsIsNotBounded() {
        StepLag lag = RULE.judge(List.of(), STEP);

        assertFalse(lag.bounded());
        assertEquals(0, lag.probes());
    }
}
