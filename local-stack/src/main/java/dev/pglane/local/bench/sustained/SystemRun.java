package dev.pglane.local.bench.sustained;

import java.util.List;

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
        return steps.stream()
                .filter(step -> step.meets(p99Seconds))
                .mapToDouble(StepResult::rateAchieved)
                .max()
                .orElse(0);
    }
}
