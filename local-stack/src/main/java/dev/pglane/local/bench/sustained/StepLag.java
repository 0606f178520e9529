package dev.pglane.local.bench.sustained;

/**
 * The lag of one step as the probe measured it, and whether it stayed bounded ({@link BoundedRule}).
 *
 * @param probes probe rows committed during the step
 * @param unseen of those, the rows not visible on the target when the step was judged
 * @param middleThirdMean mean lag of the rows committed in the step's middle third (NaN with none)
 * @param lastThirdMean mean lag of the rows committed in its last third (NaN with none)
 * @param verdict why the step is bounded or not, in words
 */
public record StepLag(
        int probes,
        int unseen,
        double p50Seconds,
        double p99Seconds,
        double maxSeconds,
        double middleThirdMean,
        double lastThirdMean,
        boolean bounded,
        String verdict) {}
