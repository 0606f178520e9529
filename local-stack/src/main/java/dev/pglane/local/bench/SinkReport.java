package dev.pglane.local.bench;

import dev.pglane.local.bench.ceiling.CeilingTable;
import dev.pglane.local.bench.ceiling.StageCost;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.function.ToDoubleFunction;

/**
 * The sink benchmark's report: every run into {@code report.json} ({@link SuiteReport}), and per configuration the
 * median and min–max over the runs, the rate as a multiple of PostgreSQL's subscriber on the same backlog, CPU, and
 * a bar chart into {@code sink-report.md}.
 */
final class SinkReport {
    static final String MARKDOWN = "sink-report.md";

    /** A run whose figures do not count: it failed, or its target differed from the source. */
    record Failure(String configuration, int run, String reason) {}

    private final String stage;
    private final String environment;
    private final Backlog.Info backlog;
    private final Measurement sourceStage;
    private final List<CatchUpMeasurement> runs = new ArrayList<>();
    private final List<Failure> failures = new ArrayList<>();

    /** @param sourceStage pglane's source connector writing the backlog to Kafka, or null when pglane was skipped */
    SinkReport(String environment, Backlog.Info backlog, Measurement sourceStage) {
        this("sink", environment, backlog, sourceStage);
    }

    /** @param stage the stage's name in {@code report.json}, e.g. {@code sink_latency} for a run behind a proxy */
    SinkReport(String stage, String environment, Backlog.Info backlog, Measurement sourceStage) {
        this.stage = stage;
        this.environment = environment;
        this.backlog = backlog;
        this.sourceStage = sourceStage;
    }

    void add(CatchUpMeasurement run) {
        runs.add(run);
    }

    /** PostgreSQL's subscriber's runs: another format's report on the same backlog compares with them. */
    List<CatchUpMeasurement> nativeRuns() {
        return runs.stream().filter(m -> m.configuration().isNative()).toList();
    }

    void fail(Failure failure) {
        failures.add(failure);
    }

    String stage() {
        return stage;
    }

    Workload workload() {
        return backlog.workload();
    }

    boolean hasFailures() {
        return !failures.isEmpty();
    }

    /** Writes {@code sink-report.md} and merges the runs into {@code report.json}; returns the markdown. */
    String write(Path dir) throws IOException {
        mergeInto(dir);
        String markdown = markdown();
        Files.writeString(dir.resolve(MARKDOWN), markdown);
        return markdown;
    }

    /** Merges the runs into {@code dir/report.json}, in place of earlier sink runs on the same backlog. */
    void mergeInto(Path dir) throws IOException {
        SuiteReport.merge(dir, backlog.workload().label(), stage, runs);
    }

    /**
     * The pglane configuration with the highest median rate relative to PostgreSQL's subscriber in the same runs,
     * with that ratio's spread; null when either was not measured.
     */
    BestRatio bestRatioToNative() {
        BestRatio best = null;
        for (Map.Entry<String, List<CatchUpMeasurement>> configuration :
                byConfiguration().entrySet()) {
            Spread ratio = ratioToNative(configuration.getValue());
            if (ratio != null && (best == null || ratio.median() > best.ratio().median())) {
                best = new BestRatio(configuration.getKey(), ratio);
            }
        }
        return best;
    }

    /**
     * pglane's rate with {@code workers} apply workers over its rate with {@code base} in the same runs; null unless
     * both were measured in some run.
     */
    Spread workerScaling(int workers, int base) {
        List<Double> ratios = new ArrayList<>();
        for (CatchUpMeasurement m : runs) {
            if (!m.configuration().isNative() && m.workers() == workers) {
                runs.stream()
                        .filter(n -> !n.configuration().isNative() && n.workers() == base && n.run() == m.run())
                        .findFirst()
                        .ifPresent(n -> ratios.add(m.transactionsPerSecond() / n.transactionsPerSecond()));
            }
        }
        return ratios.isEmpty() ? null : Spread.of(ratios);
    }

    /** A configuration and its rate over PostgreSQL's subscriber's. */
    record BestRatio(String configuration, Spread ratio) {}

    /** pglane's rate with {@code workers} apply workers over its rate with {@code fewer}, the next smaller count. */
    record StepUp(int fewer, int workers, Spread ratio) {
        String describe() {
            return fewer + " → " + workers + " workers " + BenchReport.ratio(ratio);
        }
    }

    /**
     * Each measured worker count against the next smaller one (in the same runs), by rising worker count: where more
     * workers would be slower, a ratio below 1.
     */
    List<StepUp> stepUps() {
        List<Integer> counts = runs.stream()
                .filter(m -> !m.configuration().isNative())
                .map(CatchUpMeasurement::workers)
                .distinct()
                .sorted()
                .toList();
        List<StepUp> steps = new ArrayList<>();
        for (int i = 1; i < counts.size(); i++) {
            Spread ratio = workerScaling(counts.get(i), counts.get(i - 1));
            if (ratio != null) {
                steps.add(new StepUp(counts.get(i - 1), counts.get(i), ratio));
            }
        }
        return steps;
    }

    /** The step up in workers with the lowest median ratio: issue #36's "more workers never slower"; null if none. */
    StepUp slowestStepUp() {
        return stepUps().stream()
                .min((a, b) -> Double.compare(a.ratio().median(), b.ratio().median()))
                .orElse(null);
    }

    String markdown() {
        return "# pglane sink catch-up\n\n" + environment + "\n\n" + body();
    }

    /** The backlog, the summary table, a chart, CPU by thread group and failed runs, without a heading. */
    String body() {
        StringBuilder md = new StringBuilder(backlogLine()).append("\n\n");
        md.append("| configuration | runs | median s | s to first commit | tx/s | tx/s min..max | changes/s"
                + " | vs PostgreSQL subscriber | target PG CPU s | source PG CPU s | Connect JVM CPU s"
                + " | CPU s per 1,000 tx | vs 1 worker |\n");
        md.append("|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|\n");
        AsciiBars chart = new AsciiBars();
        byConfiguration().forEach((configuration, measured) -> {
            Spread rate = spread(measured, CatchUpMeasurement::transactionsPerSecond);
            chart.bar(configuration, rate.median());
            md.append(row(
                    configuration,
                    Integer.toString(measured.size()),
                    format("%.2f", spread(measured, CatchUpMeasurement::seconds).median()),
                    format(
                            "%.2f",
                            spread(measured, CatchUpMeasurement::firstCommitSeconds)
                                    .median()),
                    format("%,.0f", rate.median()),
                    format("%,.0f..%,.0f", rate.min(), rate.max()),
                    format(
                            "%,.0f",
                            spread(measured, CatchUpMeasurement::changesPerSecond)
                                    .median()),
                    BenchReport.ratio(ratioToNative(measured)),
                    format(
                            "%.2f",
                            spread(measured, CatchUpMeasurement::targetPgCpu).median()),
                    format(
                            "%.2f",
                            spread(measured, CatchUpMeasurement::sourcePgCpu).median()),
                    measured.get(0).connectCpu() == null
                            ? "-"
                            : format(
                                    "%.2f",
                                    spread(measured, m -> m.connectCpu()).median()),
                    format("%.2f", spread(measured, SinkReport::cpuPerThousand).median()),
                    measured.get(0).configuration().isNative()
                            ? "-"
                            : BenchReport.ratio(workerScaling(measured.get(0).workers(), 1))));
        });
        md.append("\nMedian transactions/s:\n\n```\n").append(chart.render()).append("```\n");
        appendStepUps(md);
        appendBreakdown(md);
        appendCeilings(md);
        appendFailures(md);
        return md.toString();
    }

    private String backlogLine() {
        StringBuilder line = new StringBuilder(format(
                "Backlog: %,d %s (%,d row changes, %.0f MB of WAL), applied onto a fresh copy of"
                        + " the source's initial state in every run; each run's target was compared with the source"
                        + " (a run that differs is a failure, not a figure). CPU per 1,000 tx adds all parts.",
                backlog.transactions(), backlog.workload().description(), backlog.changes(), backlog.walBytes() / 1e6));
        if (sourceStage != null) {
            line.append(format(
                    " pglane's figures leave out the source stage, which put the backlog into Kafka once before the"
                            + " runs: %.2f s, %,.0f tx/s, %.2f CPU s of the source server and %.2f of the Connect JVM"
                            + " (%.2f CPU s per 1,000 tx); PostgreSQL's subscriber decodes inside its runs, so its"
                            + " source PG CPU holds that work.",
                    sourceStage.seconds(),
                    sourceStage.transactionsPerSecond(),
                    sourceStage.sourceCpuSeconds(),
                    sourceStage.clientCpuSeconds(),
                    (sourceStage.sourceCpuSeconds() + sourceStage.clientCpuSeconds()) / backlog.transactions() * 1000));
        }
        return line.toString();
    }

    /** Runs by configuration: PostgreSQL's subscriber first, then pglane by worker count. */
    private Map<String, List<CatchUpMeasurement>> byConfiguration() {
        Map<String, List<CatchUpMeasurement>> grouped = new LinkedHashMap<>();
        runs.stream()
                .sorted((a, b) -> a.system().equals(b.system())
                        ? Integer.compare(a.workers(), b.workers())
                        : a.configuration().isNative() ? -1 : 1)
                .forEach(run -> grouped.computeIfAbsent(run.configuration().label(), c -> new ArrayList<>())
                        .add(run));
        return grouped;
    }

    /** The rate over PostgreSQL's subscriber's in the same repetition, over the runs; null for the subscriber. */
    private Spread ratioToNative(List<CatchUpMeasurement> measured) {
        List<Double> ratios = new ArrayList<>();
        for (CatchUpMeasurement m : measured) {
            runs.stream()
                    .filter(n -> n.configuration().isNative() && n.run() == m.run())
                    .findFirst()
                    .ifPresent(n -> ratios.add(m.transactionsPerSecond() / n.transactionsPerSecond()));
        }
        return ratios.isEmpty() || measured.get(0).configuration().isNative() ? null : Spread.of(ratios);
    }

    private static double cpuPerThousand(CatchUpMeasurement m) {
        double cpu = m.sourcePgCpu() + m.targetPgCpu() + Objects.requireNonNullElse(m.connectCpu(), 0.0);
        return cpu / m.transactions() * 1000;
    }

    private void appendBreakdown(StringBuilder md) {
        Map<Integer, Map<String, List<Double>>> byWorkers = new TreeMap<>();
        runs.stream()
                .filter(m -> !m.configuration().isNative())
                .forEach(m -> m.connectCpuBreakdown()
                        .forEach((group, seconds) -> byWorkers
                                .computeIfAbsent(m.workers(), w -> new TreeMap<>())
                                .computeIfAbsent(group, g -> new ArrayList<>())
                                .add(seconds)));
        if (byWorkers.isEmpty()) {
            return;
        }
        TreeSet<String> groups = new TreeSet<>();
        byWorkers.values().forEach(g -> groups.addAll(g.keySet()));
        md.append("\nWhere the Connect JVM (worker, sink and broker) spent its CPU, median CPU s per run:\n\n")
                .append("| thread group |");
        byWorkers.keySet().forEach(w -> md.append(' ').append(w).append(w == 1 ? " worker |" : " workers |"));
        md.append("\n|---|").append("---:|".repeat(byWorkers.size())).append('\n');
        for (String group : groups) {
            md.append("| ").append(group).append(" |");
            byWorkers
                    .values()
                    .forEach(g -> md.append(' ')
                            .append(
                                    g.containsKey(group)
                                            ? format(
                                                    "%.2f",
                                                    Spread.of(g.get(group)).median())
                                            : "-")
                            .append(" |"));
            md.append('\n');
        }
    }

    /** The source stage's stages and each pglane configuration's, and the ceilings they project. */
    private void appendCeilings(StringBuilder md) {
        CeilingTable table = new CeilingTable(backlog.workload() == Workload.PGBENCH);
        if (sourceStage != null && !sourceStage.clientCpuBreakdown().isEmpty()) {
            table.column(
                    "source into Kafka",
                    PipelineStages.source(
                            sourceStage.clientCpuBreakdown(),
                            sourceStage.clientCpuSeconds(),
                            sourceStage.sourceCpuSeconds(),
                            backlog.transactions()));
        }
        sinkStageCosts().forEach(table::column);
        if (!table.isEmpty()) {
            md.append("\nThe pipelines' stages and their projected ceilings:\n\n")
                    .append(table.render(PipelineStages.COMMIT_SEQUENCER));
        }
    }

    /** Each pglane configuration's sink stages in CPU µs per transaction, from the medians over its runs. */
    Map<String, List<StageCost>> sinkStageCosts() {
        Map<String, List<StageCost>> costs = new LinkedHashMap<>();
        byConfiguration().forEach((configuration, measured) -> {
            if (measured.get(0).configuration().isNative()) {
                return;
            }
            Map<String, List<Double>> byGroup = new TreeMap<>();
            measured.forEach(m -> m.connectCpuBreakdown()
                    .forEach((group, seconds) -> byGroup.computeIfAbsent(group, g -> new ArrayList<>())
                            .add(seconds)));
            Map<String, Double> medians = new TreeMap<>();
            byGroup.forEach(
                    (group, seconds) -> medians.put(group, Spread.of(seconds).median()));
            costs.put(
                    configuration,
                    PipelineStages.sink(
                            medians,
                            spread(measured, CatchUpMeasurement::targetPgCpu).median(),
                            backlog.transactions()));
        });
        return costs;
    }

    private void appendStepUps(StringBuilder md) {
        List<StepUp> steps = stepUps();
        if (steps.isEmpty()) {
            return;
        }
        md.append("\nEach worker count against the next smaller, rate ratio in the same runs: ")
                .append(String.join("; ", steps.stream().map(StepUp::describe).toList()))
                .append(".\n");
    }

    private void appendFailures(StringBuilder md) {
        if (failures.isEmpty()) {
            return;
        }
        md.append("\nFailed runs (not in the figures above):\n\n");
        failures.forEach(f -> md.append("- ")
                .append(f.configuration())
                .append(", run ")
                .append(f.run())
                .append(": ")
                .append(f.reason().replace("\n", "\n  "))
                .append('\n'));
    }

    private static Spread spread(List<CatchUpMeasurement> measured, ToDoubleFunction<CatchUpMeasurement> figure) {
        return Spread.of(measured.stream().map(figure::applyAsDouble).toList());
    }

    private static String row(String... cells) {
        return "| " + String.join(" | ", Arrays.asList(cells)) + " |\n";
    }

    private static String format(String pattern, Object... values) {
        return String.format(Locale.ROOT, pattern, values);
    }
}
