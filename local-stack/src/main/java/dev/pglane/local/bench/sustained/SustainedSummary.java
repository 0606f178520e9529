package dev.pglane.local.bench.sustained;

import dev.pglane.local.bench.Spread;
import java.util.ArrayList;
import java.util.List;
import java.util.function.ToDoubleFunction;

/**
 * One system over the runs: per rate asked, the medians (and ranges) of the rate reached and of the lag percentiles
 * over the runs that reached that step; and the headline, each run's highest rate with lag p99 within
 * {@link #HEADLINE_P99_SECONDS}, as a median over the runs.
 *
 * @param highestRate null when no run of the system completed
 * @param highestBoundedRate each run's highest rate with its lag bounded, whatever its p99; null likewise
 */
public record SustainedSummary(
        SustainedSystem system, int runs, Spread highestRate, Spread highestBoundedRate, List<Step> steps) {
    /** The headline's bound on lag p99. */
    public static final double HEADLINE_P99_SECONDS = 1.0;

    /**
     * One rate asked, over the runs that reached it.
     *
     * @param runs how many runs reached this step
     * @param boundedRuns of those, how many found it bounded
     * @param meetingRuns of those, how many found it bounded with lag p99 within the headline's bound
     */
    public record Step(
            int rateAsked,
            int runs,
            int boundedRuns,
            int meetingRuns,
            Spread rateAchieved,
            Spread p50,
            Spread p99,
            Spread max) {
        /** Bounded in a majority of the runs that reached it. */
        public boolean bounded() {
            return 2 * boundedRuns > runs;
        }

        /** Bounded with lag p99 within the headline's bound in a majority of the runs that reached it. */
        public boolean meetsHeadline() {
            return 2 * meetingRuns > runs;
        }
    }

    /** {@code system}'s summary over {@code systemRuns} (its own), at the rates asked in {@code rates}' order. */
    static SustainedSummary of(SustainedSystem system, List<SystemRun> systemRuns, List<Integer> rates) {
        List<Step> steps = new ArrayList<>();
        for (int rate : rates) {
            List<StepResult> atRate = systemRuns.stream()
                    .flatMap(run -> run.steps().stream())
                    .filter(step -> step.rateAsked() == rate)
                    .toList();
            if (!atRate.isEmpty()) {
                steps.add(new Step(
                        rate,
                        atRate.size(),
                        (int) atRate.stream().filter(s -> s.lag().bounded()).count(),
                        (int) atRate.stream()
                                .filter(s -> s.meets(HEADLINE_P99_SECONDS))
                                .count(),
                        spread(atRate, StepResult::rateAchieved),
                        spread(atRate, s -> s.lag().p50Seconds()),
                        spread(atRate, s -> s.lag().p99Seconds()),
                        spread(atRate, s -> s.lag().maxSeconds())));
            }
        }
        return new SustainedSummary(
                system,
                systemRuns.size(),
                overRuns(systemRuns, run -> run.highestRateWithin(HEADLINE_P99_SECONDS)),
                overRuns(systemRuns, SystemRun::highestBoundedRate),
                steps);
    }

    private static Spread overRuns(List<SystemRun> systemRuns, ToDoubleFunction<SystemRun> figure) {
        return systemRuns.isEmpty()
                ? null
                : Spread.of(systemRuns.stream().map(figure::applyAsDouble).toList());
    }

    /** The highest rate asked at which the headline holds in most runs: its lag figures stand beside the headline. */
    public Step headlineStep() {
        Step best = null;
        for (Step step : steps) {
            if (step.meetsHeadline()) {
                best = step;
            }
        }
        return best;
    }

    private static Spread spread(List<StepResult> steps, ToDoubleFunction<StepResult> figure) {
        return Spread.of(steps.stream().map(figure::applyAsDouble).toList());
    }
}
