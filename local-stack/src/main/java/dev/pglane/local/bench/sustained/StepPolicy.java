package dev.pglane.local.bench.sustained;

import java.util.ArrayList;
import java.util.List;

/**
 * What follows a measured step: the next rate, or the end of this system's steps. Stepping stops at the first
 * unbounded step (the system no longer keeps up: a higher rate only adds backlog), and when pgbench reached less than
 * {@link #SATURATED} of the rate asked (the machine cannot generate more beside this system: a higher rate asks the
 * same of it again).
 */
public final class StepPolicy {
    /** The share of the asked rate below which the load counts as saturated. */
    static final double SATURATED = 0.9;

    /** What comes after a step. */
    public enum Next {
        STEP_UP("stepped up"),
        STOP_UNBOUNDED("stopped: lag unbounded"),
        STOP_SATURATED("stopped: pgbench could not reach the rate asked"),
        STOP_LAST("the last rate step");

        private final String words;

        Next(String words) {
            this.words = words;
        }

        public String words() {
            return words;
        }
    }

    /** Runs one step of the paced load at a rate and measures it. */
    @FunctionalInterface
    public interface Step {
        StepResult run(int rate) throws Exception;
    }

    /** The steps a system ran, rising, and why it ran no more. */
    public record Climb(List<StepResult> steps, Next stop) {}

    private StepPolicy() {}

    /** Runs {@code step} at each of {@code rates} in turn until {@link #after} says stop. */
    public static Climb climb(List<Integer> rates, Step step) throws Exception {
        List<StepResult> steps = new ArrayList<>();
        for (int i = 0; i < rates.size(); i++) {
            StepResult result = step.run(rates.get(i));
            steps.add(result);
            Next next = after(result, i == rates.size() - 1);
            if (next != Next.STEP_UP) {
                return new Climb(List.copyOf(steps), next);
            }
        }
        throw new IllegalArgumentException("no rate to step through");
    }

    /** @param lastRate whether {@code step} ran the highest rate asked for */
    public static Next after(StepResult step, boolean lastRate) {
        if (!step.lag().bounded()) {
            return Next.STOP_UNBOUNDED;
        }
        if (step.rateAchieved() < SATURATED * step.rateAsked()) {
            return Next.STOP_SATURATED;
        }
        return lastRate ? Next.STOP_LAST : Next.STEP_UP;
    }
}
