package dev.pglane.local.bench.html;

import dev.pglane.local.bench.Spread;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;

/**
 * A backlog's CPU per unit of work: under each stage a bar per configuration, its parts the components (the source
 * server, the target server, the Connect JVM, a client process), each the median over the runs, and a whisker over
 * the runs' totals.
 */
final class CpuChart {
    /** A part of the CPU, under the name report.json gives it. */
    private record Component(String key, Series series) {}

    /** In the order their parts are laid end to end. */
    private static final List<Component> COMPONENTS = List.of(
            new Component("source_pg", new Series("source server", "#56B4E9")),
            new Component("target_pg", new Series("target server", "#009E73")),
            new Component("connect", new Series("Connect JVM (worker and broker)", "#0072B2")),
            new Component("client", new Series("client (pg_recvlogical, the engine's JVM, the COPY pipe)", "#CC79A7")));

    private CpuChart() {}

    static SvgBarChart of(String title, Work work, List<StageRuns> stages) {
        SvgBarChart chart = new SvgBarChart(title, work.cpuUnit())
                .legendOrder(COMPONENTS.stream().map(Component::series).toList());
        for (StageRuns stage : stages) {
            chart.section(stage.heading());
            stage.runs().forEach((configuration, runs) -> {
                List<String> components = runs.stream()
                        .flatMap(r -> r.cpuSeconds().keySet().stream())
                        .distinct()
                        .sorted(Comparator.comparingInt(CpuChart::place))
                        .toList();
                if (components.isEmpty()) {
                    return;
                }
                List<SvgBarChart.Segment> parts = new ArrayList<>();
                for (String component : components) {
                    Spread perRun = Spread.of(runs.stream()
                            .map(r -> work.cpuPerUnit(r, r.cpuSeconds().getOrDefault(component, 0.0)))
                            .toList());
                    parts.add(new SvgBarChart.Segment(series(component), perRun.median()));
                }
                Spread total = Spread.of(runs.stream()
                        .map(r -> work.cpuPerUnit(
                                r,
                                r.cpuSeconds().values().stream()
                                        .mapToDouble(Double::doubleValue)
                                        .sum()))
                        .toList());
                chart.stackedBar(configuration.label(), parts, total);
            });
        }
        return chart;
    }

    /** Where {@code key}'s part goes in a bar: a component this version does not name goes last. */
    private static int place(String key) {
        for (int i = 0; i < COMPONENTS.size(); i++) {
            if (COMPONENTS.get(i).key().equals(key)) {
                return i;
            }
        }
        return COMPONENTS.size();
    }

    private static Series series(String key) {
        int place = place(key);
        return place < COMPONENTS.size() ? COMPONENTS.get(place).series() : new Series(key, "#999999");
    }
}
