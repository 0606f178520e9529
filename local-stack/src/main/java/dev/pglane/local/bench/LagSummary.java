package dev.pglane.local.bench;

import java.util.ArrayList;
import java.util.List;

/**
 * The replication lag over a sustained load, from readings of the sink's progress taken at a steady interval: the
 * greatest, the last one before the load stopped, and the means over the first and the last third of the load.
 *
 * <p>Lag is bounded when it does not grow: the last third's mean stays within {@link #GROWTH_ALLOWED} times the
 * first third's plus {@link #SLACK_SECONDS} (a pipeline that keeps up shows a flat lag with noise; one that falls
 * behind shows a lag rising with time).
 *
 * @param samples the readings with progress, in the order they were taken (report.json keeps them, so the lag over
 *     time can be drawn)
 * @param series the lag at every {@link #SERIES_STEP_SECONDS} of the load (the first reading at or after each
 *     step), to show its shape
 */
record LagSummary(
        double maxSeconds,
        double endSeconds,
        double firstThirdMean,
        double lastThirdMean,
        List<Sample> samples,
        List<Double> series) {
    static final double GROWTH_ALLOWED = 1.5;
    static final double SLACK_SECONDS = 0.5;
    static final int SERIES_STEP_SECONDS = 5;

    LagSummary {
        samples = List.copyOf(samples);
        series = List.copyOf(series);
    }

    /** One reading: when, in seconds since the load started, and the lag then. */
    record Sample(double atSeconds, double lagSeconds) {}

    static LagSummary of(List<Sample> samples, double loadSeconds) {
        if (samples.isEmpty()) {
            throw new IllegalArgumentException("no lag readings with progress during the load");
        }
        double max = samples.stream().mapToDouble(Sample::lagSeconds).max().orElseThrow();
        double end = samples.get(samples.size() - 1).lagSeconds();
        return new LagSummary(
                max,
                end,
                mean(samples, 0, loadSeconds / 3),
                mean(samples, loadSeconds * 2 / 3, loadSeconds),
                samples,
                series(samples, loadSeconds));
    }

    private static List<Double> series(List<Sample> samples, double loadSeconds) {
        List<Double> series = new ArrayList<>();
        for (int step = SERIES_STEP_SECONDS; step <= loadSeconds; step += SERIES_STEP_SECONDS) {
            double at = step;
            samples.stream().filter(s -> s.atSeconds() >= at).findFirst().ifPresent(s -> series.add(s.lagSeconds()));
        }
        return series;
    }

    boolean bounded() {
        return lastThirdMean <= firstThirdMean * GROWTH_ALLOWED + SLACK_SECONDS;
    }

    private static double mean(List<Sample> samples, double from, double to) {
        return samples.stream()
                .filter(s -> s.atSeconds() >= from && s.atSeconds() <= to)
                .mapToDouble(Sample::lagSeconds)
                .average()
                .orElse(Double.NaN);
    }
}
