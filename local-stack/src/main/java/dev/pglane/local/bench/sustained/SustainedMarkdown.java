package dev.pglane.local.bench.sustained;

import dev.pglane.local.bench.Spread;
import java.util.List;
import java.util.Locale;

/**
 * {@code sustained-report.md}: first the headline table (each system's highest paced rate with lag p99 within 1 s,
 * beside PostgreSQL's subscriber, and its highest rate with the lag bounded at all), the one the README's benchmark section leads with; then every step; then the rule,
 * the checks and any failure.
 */
final class SustainedMarkdown {
    private SustainedMarkdown() {}

    static String render(SustainedReport report) {
        List<SustainedSummary> summaries = report.summaries();
        StringBuilder md = new StringBuilder("# Sustained rate: lag under a paced load\n\n");
        md.append(report.environment()).append("\n\n");
        md.append(headline(summaries));
        md.append("\n## Every step\n\n");
        md.append(steps(summaries));
        md.append("\nMedians over the runs that reached a step (min..max in brackets when the runs differ). Bounded: ")
                .append(report.rule().describe())
                .append("; a step counts as bounded when most of the runs that reached it found it so. Stepping stops")
                .append(" at a system's first unbounded step, or when pgbench reached less than ")
                .append(Math.round(StepPolicy.SATURATED * 100))
                .append("% of the rate asked.\n");
        md.append("\n## Checks\n\n");
        for (SystemRun run : report.runs()) {
            md.append("- ")
                    .append(run.system().label())
                    .append(", run ")
                    .append(run.run())
                    .append(": ")
                    .append(run.stop().words())
                    .append("; ")
                    .append(run.check())
                    .append('\n');
        }
        if (!report.failures().isEmpty()) {
            md.append("\n## Failed runs (not measured)\n\n");
            report.failures().forEach(f -> md.append("- ").append(f).append('\n'));
        }
        return md.toString();
    }

    private static String headline(List<SustainedSummary> summaries) {
        Spread subscriber = summaries.stream()
                .filter(s -> s.system() == SustainedSystem.SUBSCRIBER)
                .map(SustainedSummary::highestRate)
                .findFirst()
                .orElse(null);
        StringBuilder md = new StringBuilder();
        md.append("| system | highest paced rate with lag p99 ≤ 1 s | lag p50 / p99 / max there | vs the subscriber"
                + " | highest rate with lag bounded |\n");
        md.append("|---|---:|---|---:|---:|\n");
        for (SustainedSummary summary : summaries) {
            SustainedSummary.Step step = summary.headlineStep();
            Spread highest = summary.highestRate();
            md.append("| ")
                    .append(summary.system().label())
                    .append(" | ")
                    .append(rateOrNone(highest))
                    .append(" | ")
                    .append(step == null ? "-" : lags(step))
                    .append(" | ")
                    .append(ratio(highest, subscriber))
                    .append(" | ")
                    .append(rateOrNone(summary.highestBoundedRate()))
                    .append(" |\n");
        }
        return md.toString();
    }

    private static String steps(List<SustainedSummary> summaries) {
        StringBuilder md = new StringBuilder();
        md.append("| system | rate asked | reached (tx/s) | lag p50 | lag p99 | lag max | bounded |\n");
        md.append("|---|---:|---:|---:|---:|---:|---|\n");
        for (SustainedSummary summary : summaries) {
            for (SustainedSummary.Step step : summary.steps()) {
                md.append("| ")
                        .append(summary.system().label())
                        .append(" | ")
                        .append(step.rateAsked())
                        .append(" | ")
                        .append(rate(step.rateAchieved()))
                        .append(" | ")
                        .append(seconds(step.p50()))
                        .append(" | ")
                        .append(seconds(step.p99()))
                        .append(" | ")
                        .append(seconds(step.max()))
                        .append(" | ")
                        .append(step.bounded() ? "yes" : "**no**")
                        .append(step.runs() > 1 ? " (" + step.boundedRuns() + " of " + step.runs() + ")" : "")
                        .append(" |\n");
            }
        }
        return md.toString();
    }

    private static String rateOrNone(Spread rate) {
        return rate == null || rate.median() == 0 ? "none" : rate(rate) + " tx/s";
    }

    private static String lags(SustainedSummary.Step step) {
        return format(
                "%.2f / %.2f / %.2f s",
                step.p50().median(), step.p99().median(), step.max().median());
    }

    private static String ratio(Spread highest, Spread subscriber) {
        if (highest == null || subscriber == null || subscriber.median() == 0) {
            return "-";
        }
        return format("%.2f×", highest.median() / subscriber.median());
    }

    private static String rate(Spread spread) {
        String median = format("%,.0f", spread.median());
        return Math.round(spread.min()) == Math.round(spread.max())
                ? median
                : median + format(" (%,.0f..%,.0f)", spread.min(), spread.max());
    }

    private static String seconds(Spread spread) {
        String median = format("%.2f s", spread.median());
        return format("%.2f", spread.min()).equals(format("%.2f", spread.max()))
                ? median
                : median + format(" (%.2f..%.2f)", spread.min(), spread.max());
    }

    private static String format(String pattern, Object... values) {
        return String.format(Locale.ROOT, pattern, values);
    }
}
