package dev.pglane.it.bench;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import com.fasterxml.jackson.databind.module.SimpleModule;
import com.fasterxml.jackson.databind.ser.std.ToStringSerializer;
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
 * The runs of a benchmark and their summary: per workload and system the median and min–max of each figure over
 * the runs, and the connector's rate as a fraction of pg_recvlogical's measured on the same backlogs.
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
            Spread rateVsRecvLogical) {}

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
            for (String system : List.of(RecvLogicalRun.SYSTEM, ConnectorRun.SYSTEM)) {
                List<Measurement> measured = workloadRuns.stream()
                        .flatMap(run -> run.measurements().stream())
                        .filter(m -> m.system().equals(system))
                        .toList();
                if (!measured.isEmpty()) {
                    summaries.add(summarise(workloadRuns, system, measured));
                }
            }
        }
        return summaries;
    }

    private static Summary summarise(List<Run> workloadRuns, String system, List<Measurement> measured) {
        Map<String, List<Double>> breakdown = new TreeMap<>();
        measured.forEach(m -> m.clientCpuBreakdown()
                .forEach((group, s) ->
                        breakdown.computeIfAbsent(group, g -> new ArrayList<>()).add(s)));
        Map<String, Spread> breakdownSpread = new TreeMap<>();
        breakdown.forEach((group, values) -> breakdownSpread.put(group, Spread.of(values)));
        List<Double> ratios = new ArrayList<>();
        for (Run run : system.equals(RecvLogicalRun.SYSTEM) ? List.<Run>of() : workloadRuns) {
            Measurement recv = find(run, RecvLogicalRun.SYSTEM);
            Measurement mine = find(run, system);
            if (recv != null && mine != null) {
                ratios.add(mine.changesPerSecond() / recv.changesPerSecond());
            }
        }
        return new Summary(
                workloadRuns.get(0).workload(),
                system,
                measured.size(),
                spread(measured, Measurement::seconds),
                spread(measured, Measurement::changesPerSecond),
                spread(measured, Measurement::transactionsPerSecond),
                spread(measured, Measurement::sourceCpuSeconds),
                spread(measured, Measurement::clientCpuSeconds),
                breakdownSpread,
                ratios.isEmpty() ? null : Spread.of(ratios));
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

    /** Writes {@code source-report.json} (every run and the summary) and {@code source-report.md}; returns the md. */
    String write(Path dir) throws IOException {
        Files.createDirectories(dir);
        Map<String, Object> json = new LinkedHashMap<>();
        json.put("environment", environment);
        json.put("summary", summaries());
        json.put("runs", runs);
        JSON.writeValue(dir.resolve("source-report.json").toFile(), json);
        String markdown = markdown();
        Files.writeString(dir.resolve("source-report.md"), markdown);
        return markdown;
    }

    String markdown() {
        StringBuilder md = new StringBuilder("# pglane source throughput\n\n")
                .append(environment)
                .append("\n\n");
        md.append("| workload | system | WAL MB | tx | changes | runs | median s | changes/s | changes/s min..max"
                + " | tx/s | vs pg_recvlogical | client CPU s | src PG CPU s |\n");
        md.append("|---|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|\n");
        for (Summary s : summaries()) {
            Backlog.Info backlog = runs.stream()
                    .filter(r -> r.workload() == s.workload())
                    .findFirst()
                    .orElseThrow()
                    .backlog();
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
                    s.rateVsRecvLogical() == null
                            ? "-"
                            : format(
                                    "%.2f× (%.2f..%.2f)",
                                    s.rateVsRecvLogical().median(),
                                    s.rateVsRecvLogical().min(),
                                    s.rateVsRecvLogical().max()),
                    format("%.2f", s.clientCpuSeconds().median()),
                    format("%.2f", s.sourceCpuSeconds().median())));
        }
        appendBreakdown(md);
        return md.toString();
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

    private static String row(String... cells) {
        return "| " + String.join(" | ", Arrays.asList(cells)) + " |\n";
    }

    private static String format(String pattern, Object... values) {
        return String.format(Locale.ROOT, pattern, values);
    }
}
