package dev.pglane.local.bench.sustained;

import java.util.List;
import java.util.function.Predicate;

/**
 * One system's steps in one run, why its stepping stopped, and whether its target ended equal to the source.
 *
 * @param equal null when the target was not compared (it had not caught up in time)
 * @param check the comparison's outcome in words
 */
public record SystemRun(
        SustainedSystem system, int run, List<StepResult> steps, StepPolicy.Next stop, Boolean equal, String check) {

    /** The highest rate pgbench reached in a step that meets {@code p99Seconds}; 0 when no step does. */
    public double highestRateWithin(double p99Seconds) {
        return highestRate(step -> step.meets(p99Seconds));
    }

    /** The highest rate pgbench reached in a bounded step, whatever its lag; 0 when no step was bounded. */
    public double highestBoundedRate() {
        return highestRate(step -> step.lag().bounded());
    }

    private double highestRate(Predicate<StepResult> counts) {
        return steps.stream()
                .filter(counts)
                .mapToDouble(StepResult::rateAchieved)
                .max()
                .orElse(0);
    }
}
