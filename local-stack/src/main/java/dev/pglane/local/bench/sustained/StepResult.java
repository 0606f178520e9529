package dev.pglane.local.bench.sustained;

/**
 * One step of one run of one system: the rate pgbench was asked for, the rate it reached, and the lag meanwhile.
 *
 * @param rateAchieved the transactions pgbench reports processed over the step's seconds
 */
public record StepResult(
        SustainedSystem system, int run, int rateAsked, double rateAchieved, double stepSeconds, StepLag lag) {

    /** Whether this step counts for the headline: lag bounded with a p99 of at most {@code p99Seconds}. */
    public boolean meets(double p99Seconds) {
        return lag.bounded() && lag.p99Seconds() <= p99Seconds;
    }
}
