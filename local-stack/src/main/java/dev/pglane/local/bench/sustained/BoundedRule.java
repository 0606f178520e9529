package dev.pglane.local.bench.sustained;

import java.util.List;
import java.util.Locale;
import org.HdrHistogram.Histogram;

/**
 * Whether a step's lag stayed bounded: the rule that stops the stepping.
 *
 * <p>A system that applies more slowly than the load arrives falls behind steadily: its lag grows for the whole step,
 * by (1 - applied/offered) seconds each second. So a step is bounded when all of these hold:
 *
 * <ol>
 *   <li>the probe committed rows during the step and every one of them became visible on the target by the time the
 *       step was judged (which waits up to {@link #p99Cap} after the step for the last ones);
 *   <li>the 99th percentile of the step's lag is at most {@link #p99Cap};
 *   <li>the lag is not growing: the mean lag of the rows committed in the step's last third exceeds that of its middle
 *       third by at most {@link #growthSeconds} or {@link #growthFraction} of the middle third's mean, whichever is
 *       larger. The first third is left out: after a step up, the lag settles from the previous step's level.
 * </ol>
 *
 * <p>With 60 s steps the growth test catches a system that applies less than about 98% of the load (a growth of 0.02
 * s/s adds 0.4 s over 20 s), at a noise margin of 0.25 s.
 */
public record BoundedRule(double p99Cap, double growthSeconds, double growthFraction) {
    /** The rule the report states. */
    public static final BoundedRule DEFAULT = new BoundedRule(5.0, 0.25, 0.25);

    /** Lags to the microsecond, up to a day. */
    private static final long HIGHEST_MICROS = 86_400_000_000L;

    /** The step's lag from its probe rows; {@code stepSeconds} is how long its load ran. */
    public StepLag judge(List<ProbeSample> samples, double stepSeconds) {
        if (samples.isEmpty()) {
            return new StepLag(0, 0, 0, 0, 0, Double.NaN, Double.NaN, false, "no probe row committed in the step");
        }
        Histogram histogram = new Histogram(HIGHEST_MICROS, 3);
        int unseen = 0;
        for (ProbeSample sample : samples) {
            histogram.recordValue(Math.max(1, Math.min(HIGHEST_MICROS, Math.round(sample.lagSeconds() * 1e6))));
            if (!sample.seen()) {
                unseen++;
            }
        }
        double p50 = histogram.getValueAtPercentile(50) / 1e6;
        double p99 = histogram.getValueAtPercentile(99) / 1e6;
        double max = histogram.getMaxValue() / 1e6;
        double middle = meanLag(samples, stepSeconds / 3, 2 * stepSeconds / 3);
        double last = meanLag(samples, 2 * stepSeconds / 3, Double.MAX_VALUE);
        String verdict;
        if (unseen > 0) {
            verdict = unseen + " probe row(s) not visible " + seconds(p99Cap) + " after the step";
        } else if (p99 > p99Cap) {
            verdict = "p99 " + seconds(p99) + " over the cap of " + seconds(p99Cap);
        } else if (growing(middle, last)) {
            verdict = "lag grew from " + seconds(middle) + " (middle third) to " + seconds(last) + " (last third)";
        } else {
            verdict = "bounded";
        }
        return new StepLag(samples.size(), unseen, p50, p99, max, middle, last, verdict.equals("bounded"), verdict);
    }

    private boolean growing(double middle, double last) {
        if (Double.isNaN(middle) || Double.isNaN(last)) {
            return false; // a step too short to have thirds with probe rows: judged by the other tests
        }
        return last - middle > Math.max(growthSeconds, growthFraction * middle);
    }

    private static double meanLag(List<ProbeSample> samples, double from, double until) {
        return samples.stream()
                .filter(s -> s.committedAtSeconds() >= from && s.committedAtSeconds() < until)
                .mapToDouble(ProbeSample::lagSeconds)
                .average()
                .orElse(Double.NaN);
    }

    private static String seconds(double value) {
        return String.format(Locale.ROOT, "%.2f s", value);
    }

    /** The rule in words, for the reports. */
    public String describe() {
        return String.format(
                Locale.ROOT,
                "a step is bounded when every probe row committed in it became visible on the target (waiting up to"
                        + " %.0f s after the step), its lag p99 is at most %.0f s, and the mean lag of its last third"
                        + " exceeds that of its middle third by at most %.2f s or %.0f%% of it, whichever is larger"
                        + " (a lag that grows through the step means the system applies less than the load)",
                p99Cap,
                p99Cap,
                growthSeconds,
                growthFraction * 100);
    }
}
