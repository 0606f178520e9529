package dev.pglane.local.bench;

import java.util.List;
import java.util.Locale;
import java.util.stream.Collectors;

/** The end-to-end stage in {@code report.md}: one row per run, and whether lag stayed bounded in every run. */
final class EndToEndReport {
    private final List<EndToEndMeasurement> runs;
    private final List<String> failures;

    EndToEndReport(List<EndToEndMeasurement> runs, List<String> failures) {
        this.runs = runs;
        this.failures = failures;
    }

    List<EndToEndMeasurement> runs() {
        return runs;
    }

    boolean hasFailures() {
        return !failures.isEmpty();
    }

    /** Whether lag stayed bounded in every run; null when no run succeeded. */
    Boolean bounded() {
        return runs.isEmpty() ? null : runs.stream().allMatch(m -> m.lag().bounded());
    }

    String body() {
        StringBuilder md = new StringBuilder(format(
                "pgbench's TPC-B load on the source while the whole pipeline runs, then a fence and the wait until it"
                        + " is applied (drain). Before it, a 5 s warm-up of the same load, applied, so that the figures"
                        + " are of the steady state. Lag: how long before each reading (every 250 ms) the last applied"
                        + " transaction had committed. Bounded: the last third's mean lag ≤ %.1f× the first third's +"
                        + " %.1f s. Apply rate: transactions over load + drain. CPU over load + drain.\n\n",
                LagSummary.GROWTH_ALLOWED, LagSummary.SLACK_SECONDS));
        md.append("| format | workers | run | load s | tx | generation tx/s | apply tx/s | drain s | lag max s"
                        + " | lag at load end s | lag mean, first third s | lag mean, last third s | bounded"
                        + " | CPU s src PG / tgt PG / Connect JVM | CPU s per 1,000 tx |\n")
                .append("|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---|---|---:|\n");
        for (EndToEndMeasurement m : runs) {
            md.append(format(
                    "| %s | %d | %d | %.1f | %,d | %,.0f | %,.0f | %.2f | %.2f | %.2f | %.2f | %.2f | %s | %.1f / %.1f / %.1f"
                            + " | %.2f |\n",
                    m.format().option(),
                    m.workers(),
                    m.run(),
                    m.loadSeconds(),
                    m.transactions(),
                    m.generationRate(),
                    m.applyRate(),
                    m.drainSeconds(),
                    m.lag().maxSeconds(),
                    m.lag().endSeconds(),
                    m.lag().firstThirdMean(),
                    m.lag().lastThirdMean(),
                    m.lag().bounded() ? "yes" : "no",
                    m.cpu().sourcePg(),
                    m.cpu().targetPg(),
                    m.cpu().jvm(),
                    m.cpuPerThousand()));
        }
        if (!runs.isEmpty()) {
            md.append(format("\nLag in seconds every %d s of the load:\n\n", LagSummary.SERIES_STEP_SECONDS));
            for (EndToEndMeasurement m : runs) {
                md.append(format("- %s, %d workers, run %d: ", m.format().option(), m.workers(), m.run()))
                        .append(m.lag().series().stream()
                                .map(lag -> format("%.1f", lag))
                                .collect(Collectors.joining(" ")))
                        .append('\n');
            }
        }
        if (!failures.isEmpty()) {
            md.append("\nFailed runs (not in the figures above):\n\n");
            failures.forEach(
                    f -> md.append("- ").append(f.replace("\n", "\n  ")).append('\n'));
        }
        return md.toString();
    }

    private static String format(String pattern, Object... values) {
        return String.format(Locale.ROOT, pattern, values);
    }
}
