package dev.pglane.local.bench.html;

import java.util.List;
import java.util.Optional;

/** The end-to-end stage's lag over its load: a line per run through every reading the run kept. */
final class LagChart {
    private LagChart() {}

    /** Empty when no run kept its readings (reports written before report.json kept them). */
    static Optional<SvgLineChart> of(String title, List<ReportEntry> endToEnd) {
        List<ReportEntry> runs =
                endToEnd.stream().filter(r -> !r.lagSamples().isEmpty()).toList();
        if (runs.isEmpty()) {
            return Optional.empty();
        }
        SvgLineChart chart = new SvgLineChart(title, "seconds since the load started", "lag, seconds");
        for (int i = 0; i < runs.size(); i++) {
            ReportEntry run = runs.get(i);
            String name = Configuration.of(run).label() + ", run " + run.run();
            chart.line(Series.nth(name, i), run.lagSamples());
        }
        return Optional.of(chart);
    }
}
