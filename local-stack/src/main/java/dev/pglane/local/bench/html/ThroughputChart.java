package dev.pglane.local.bench.html;

import dev.pglane.local.bench.Spread;
import java.util.List;
import java.util.OptionalDouble;

/**
 * A backlog's throughput: under each stage a bar per configuration, the median over its runs with a whisker from the
 * slowest to the fastest. The end-to-end stage adds the rate pgbench's load committed at beside the rate applied.
 */
final class ThroughputChart {
    static final Series LOAD = new Series("pgbench's load, as generated", "#E69F00");

    private ThroughputChart() {}

    static SvgBarChart of(String title, Work work, List<StageRuns> stages) {
        SvgBarChart chart = new SvgBarChart(title, work.rateUnit());
        for (StageRuns stage : stages) {
            chart.section(stage.heading());
            stage.runs().forEach((configuration, runs) -> {
                List<Double> generated = runs.stream()
                        .map(ReportEntry::generatedPerSecond)
                        .filter(OptionalDouble::isPresent)
                        .map(OptionalDouble::getAsDouble)
                        .toList();
                if (!generated.isEmpty()) {
                    chart.bar(configuration.label() + ": generated", LOAD, Spread.of(generated));
                }
                chart.bar(
                        configuration.label() + (generated.isEmpty() ? "" : ": applied"),
                        configuration.kind(),
                        Spread.of(runs.stream().map(work::rate).toList()));
            });
        }
        return chart;
    }
}
