package dev.pglane.local.bench;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import com.fasterxml.jackson.databind.module.SimpleModule;
import com.fasterxml.jackson.databind.ser.std.ToStringSerializer;
import dev.pglane.local.bench.ceiling.CeilingTable;
import dev.pglane.local.bench.ceiling.StageCost;
import dev.pglane.wire.Lsn;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;
import java.util.function.ToDoubleFunction;

/**
 * The runs of a benchmark's source stage and their summary: per workload and system the median and min–max of each
 * figure over the runs, CPU per 1,000 transactions, and pglane's rate as a multiple of pg_recvlogical's and of
 * Debezium's measured on the same backlogs in the same run.
 */
final class BenchReport {
    private static final ObjectMapper JSON = new ObjectMapper()
            .enable(SerializationFeature.INDENT_OUTPUT)
            .registerModule(new SimpleModule().addSerializer(Lsn.class, ToStringSerializer.instance));

    /** One run: one backlog and what each reader measured on it. */
    record Run(Workload workload, int run, Backlog.Info backlog, List<Measurement> measurements) {}

    /** One system on one workload over all runs. */
    record Summary(
            Workload workload,
            String system,
            int runs,
            Spread seconds,
            Spread changesPerSecond,
            Spread transactionsPerSecond,
            Spread sourceCpuSeconds,
            Spread clientCpuSeconds,
            Map<String, Spread> clientCpuBreakdown,
            Spread cpuPerThousandTransactions,
            Spread rateVsRecvLogical,
            Spread rateVsDebezium,
            Spread bytesPerChange) {}

    private final String environment;
    private final List<Run> runs = new ArrayList<>();

    BenchReport(String environment) {
        this.environment = environment;
    }

    void add(Run run) {
        runs.add(run);
    }

    List<Summary> summaries() {
        Map<String, List<Run>> byWorkload = new LinkedHashMap<>();
        runs.forEach(run -> byWorkload
                .computeIfAbsent(run.workload().label(), w -> new ArrayList<>())
                .add(run));
        List<Summary> summaries = new ArrayList<>();
        for (List<Run> workloadRuns : byWorkload.values()) {
            for (SourceSystem system : SourceSystem.values()) {
                List<Measurement> measured = workloadRuns.stream()
                        .flatMap(run -> run.measurements().stream())
                        .filter(m -> m.system().equals(system.label()))
                        .toList();
                if (!measured.isEmpty()) {
                    summaries.add(summarise(workloadRuns, system, measured));
                }
            }
        }
        return summaries;
    }

    private static Summary summarise(List<Run> workloadRuns, SourceSystem system, List<Measurement> measured) {
        Map<String, List<Double>> breakdown = new TreeMap<>();
        measured.forEach(m -> m.clientCpuBreakdown()
                .forEach((group, s) ->
                        breakdown.computeIfAbsent(group, g -> new ArrayList<>()).add(s)));
        Map<String, Spread> breakdownSpread = new TreeMap<>();
        breakdown.forEach((group, values) -> breakdownSpread.put(group, Spread.of(values)));
        return new Summary(
                workloadRuns.get(0).workload(),
                system.label(),
                measured.size(),
                spread(measured, Measurement::seconds),
                spread(measured, Measurement::changesPerSecond),
                spread(measured, Measurement::transactionsPerSecond),
                spread(measured, Measurement::sourceCpuSeconds),
                spread(measured, Measurement::clientCpuSeconds),
                breakdownSpread,
                spread(measured, m -> (m.sourceCpuSeconds() + m.clientCpuSeconds()) / m.transactions() * 1000),
                system.isPglane() ? ratios(workloadRuns, system, SourceSystem.RECVLOGICAL) : null,
                system.isPglane() ? ratios(workloadRuns, system, SourceSystem.DEBEZIUM) : null,
                system.runsInConnect() ? spread(measured, Measurement::bytesPerChange) : null);
    }

    /** {@code system}'s changes/s over {@code reference}'s on the same backlog, per run; null if never both. */
    private static Spread ratios(List<Run> workloadRuns, SourceSystem system, SourceSystem reference) {
        List<Double> ratios = new ArrayList<>();
        for (Run run : workloadRuns) {
            Measurement theirs = find(run, reference.label());
            Measurement mine = find(run, system.label());
            if (theirs != null && mine != null) {
                ratios.add(mine.changesPerSecond() / theirs.changesPerSecond());
            }
        }
        return ratios.isEmpty() ? null : Spread.of(ratios);
    }

    private static Measurement find(Run run, String system) {
        return run.measurements().stream()
                .filter(m -> m.system().equals(system))
                .findFirst()
                .orElse(null);
    }

    private static Spread spread(List<Measurement> measured, ToDoubleFunction<Measurement> figure) {
        return Spread.of(measured.stream().map(figure::applyAsDouble).toList());
    }

    /**
     * Writes {@code source-report.json} (every run and the summary) and {@code source-report.md}, and merges the runs
     * into {@code report.json}; returns the markdown.
     */
    String write(Path dir) throws IOException {
        Files.createDirectories(dir);
        Map<String, Object> json = new LinkedHashMap<>();
        json.put("environment", environment);
        json.put("summary", summaries());
        json.put("runs", runs);
        JSON.writeValue(dir.resolve("source-report.json").toFile(), json);
        SuiteReport.mergeSource(dir, runs);
        String markdown = markdown();
        Files.writeString(dir.resolve("source-report.md"), markdown);
        return markdown;
    }

    String markdown() {
        return "# pglane source throughput\n\n" + environment + "\n\n" + tables();
    }

    /** The summary table, a chart per workload and the connector JVM's CPU by thread group, without a heading. */
    String tables() {
        StringBuilder md = new StringBuilder();
        md.append("| workload | system | WAL MB | tx | changes | runs | median s | changes/s | changes/s min..max"
                + " | tx/s | vs pg_recvlogical | vs Debezium | client CPU s | src PG CPU s | CPU s per 1,000 tx"
                + " | bytes per change |\n");
        md.append("|---|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|\n");
        Map<String, AsciiBars> charts = new LinkedHashMap<>();
        for (Summary s : summaries()) {
            Backlog.Info backlog = backlogOf(s.workload());
            md.append(row(
                    s.workload().label(),
                    s.system(),
                    format("%.0f", backlog.walBytes() / 1e6),
                    Long.toString(backlog.transactions()),
                    Long.toString(backlog.changes()),
                    Integer.toString(s.runs()),
                    format("%.2f", s.seconds().median()),
                    format("%.0f", s.changesPerSecond().median()),
                    format(
                            "%.0f..%.0f",
                            s.changesPerSecond().min(), s.changesPerSecond().max()),
                    format("%.0f", s.transactionsPerSecond().median()),
                    ratio(s.rateVsRecvLogical()),
                    ratio(s.rateVsDebezium()),
                    format("%.2f", s.clientCpuSeconds().median()),
                    format("%.2f", s.sourceCpuSeconds().median()),
                    format("%.2f", s.cpuPerThousandTransactions().median()),
                    s.bytesPerChange() == null
                            ? "-"
                            : format("%.0f", s.bytesPerChange().median())));
            charts.computeIfAbsent(s.workload().label(), w -> new AsciiBars())
                    .bar(s.system(), s.changesPerSecond().median());
        }
        md.append(
                "\nClient CPU: pg_recvlogical's process; the engine's JVM for the no-op runs; for pglane into Kafka the"
                        + " whole JVM of the worker and the broker. CPU per 1,000 tx adds the source server's. Bytes per"
                        + " change: key and value of the change records as a consumer receives them (uncompressed).\n");
        charts.forEach((workload, chart) -> md.append("\nMedian changes/s, ")
                .append(workload)
                .append(":\n\n```\n")
                .append(chart.render())
                .append("```\n"));
        appendBreakdown(md);
        appendCeilings(md);
        return md.toString();
    }

    /** Per workload, pglane's source stages into Kafka and the ceilings they project. */
    private void appendCeilings(StringBuilder md) {
        stageCosts().forEach((workload, columns) -> {
            CeilingTable table = new CeilingTable(workload == Workload.PGBENCH);
            columns.forEach(table::column);
            md.append("\nThe source's stages and its projected ceiling (")
                    .append(workload.label())
                    .append("):\n\n")
                    .append(table.render());
        });
    }

    /**
     * Per workload and system, pglane into Kafka's source stages in CPU µs per transaction, from the medians over the
     * runs.
     */
    Map<Workload, Map<String, List<StageCost>>> stageCosts() {
        Map<Workload, Map<String, List<StageCost>>> costs = new LinkedHashMap<>();
        for (Summary s : summaries()) {
            if (!SourceSystem.of(s.system()).runsInConnect()
                    || s.clientCpuBreakdown().isEmpty()) {
                continue;
            }
            Map<String, Double> medians = new TreeMap<>();
            s.clientCpuBreakdown().forEach((group, spread) -> medians.put(group, spread.median()));
            long transactions = backlogOf(s.workload()).transactions();
            costs.computeIfAbsent(s.workload(), w -> new LinkedHashMap<>())
                    .put(
                            s.system(),
                            PipelineStages.source(
                                    medians,
                                    s.clientCpuSeconds().median(),
                                    s.sourceCpuSeconds().median(),
                                    transactions));
        }
        return costs;
    }

    private void appendBreakdown(StringBuilder md) {
        for (Summary s : summaries()) {
            if (s.clientCpuBreakdown().isEmpty()) {
                continue;
            }
            md.append("\nWhere the connector's JVM spent its CPU (")
                    .append(s.workload().label())
                    .append(", median CPU s per run):\n\n| thread group | CPU s |\n|---|---:|\n");
            s.clientCpuBreakdown().forEach((group, spread) -> md.append(row(group, format("%.2f", spread.median()))));
        }
    }

    private Backlog.Info backlogOf(Workload workload) {
        return runs.stream()
                .filter(r -> r.workload() == workload)
                .findFirst()
                .orElseThrow()
                .backlog();
    }

    /** A rate ratio as {@code median× (min..max)}, or a dash when there is none. */
    static String ratio(Spread ratio) {
        return ratio == null ? "-" : format("%.2f× (%.2f..%.2f)", ratio.median(), ratio.min(), ratio.max());
    }

    private static String row(String... cells) {
        return "| " + String.join(" | ", Arrays.asList(cells)) + " |\n";
    }

    private static String format(String pattern, Object... values) {
        return String.format(Locale.ROOT, pattern, values);
    }
}
