package dev.pglane.local.bench.html;

import dev.pglane.local.bench.SuiteReport;
import dev.pglane.local.bench.Workload;
import dev.pglane.local.bench.snapshot.SnapshotReport;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;

/**
 * The pictures of a benchmark report, drawn from {@code report.json} alone (so {@code ./pglane-local bench-report}
 * draws an earlier run again exactly as the bench drew it): {@code report.html} beside it, per backlog the throughput
 * of every stage and configuration, the end-to-end stage's lag over time, and CPU per component; and, on request, the
 * first backlog's throughput chart as an SVG file of its own (the README's).
 */
public final class HtmlReport {
    public static final String FILE = "report.html";

    /** A backlog as report.json names it, and as the page heads its section. */
    private record Backlog(String key, String heading) {}

    /** In the order the page shows them; a backlog this version does not know comes after them, under its key. */
    private static final List<Backlog> BACKLOGS = List.of(
            new Backlog(Workload.PGBENCH.label(), "pgbench backlog (TPC-B transactions)"),
            new Backlog(Workload.INDEPENDENT.label(), "independent backlog (pgbench -N transactions)"),
            new Backlog(Workload.BULK.label(), "bulk backlog (1,000-row transactions)"),
            new Backlog(SuiteReport.END_TO_END_BACKLOG, "End to end: pgbench's load through the whole pipeline"),
            new Backlog(SnapshotReport.STAGE, "Snapshot: the initial load of existing rows"));

    private HtmlReport() {}

    /** Writes {@value #FILE} beside {@code reportJson}; returns its path. */
    public static Path write(Path reportJson) throws IOException {
        Path html = reportJson.toAbsolutePath().resolveSibling(FILE);
        String written = DateTimeFormatter.ofPattern("yyyy-MM-dd HH:mm 'UTC'")
                .format(Files.getLastModifiedTime(reportJson).toInstant().atZone(ZoneOffset.UTC));
        Files.writeString(html, page(ReportEntry.read(reportJson), reportJson.getFileName() + " of " + written));
        return html;
    }

    /** Writes the first backlog's throughput chart (pgbench's, when the report has it) to {@code svg}. */
    public static void writeThroughputSvg(Path reportJson, Path svg) throws IOException {
        List<ReportEntry> entries = ReportEntry.read(reportJson);
        List<String> backlogs = backlogs(entries);
        if (backlogs.isEmpty()) {
            throw new IOException(reportJson + " has no runs to draw");
        }
        Files.writeString(svg, throughput(backlogs.get(0), entries).render());
    }

    /** The page for {@code entries}; {@code source} names the report they come from. */
    static String page(List<ReportEntry> entries, String source) {
        BenchPage page = new BenchPage(
                "pglane benchmark report",
                "Drawn from " + source + ". Each bar is the median over its configuration's runs; a whisker, where"
                        + " the runs differ, spans the smallest to the largest. Every figure of a backlog comes from"
                        + " the same backlog in the same bench. The tables, the ratios within each run and the targets"
                        + " met or not are in report.md beside it.");
        for (String backlog : backlogs(entries)) {
            Work work = Work.of(backlog);
            List<ReportEntry> runs = of(backlog, entries);
            page.section(heading(backlog)).figure(throughput(backlog, entries).render(), throughputCaption(backlog));
            if (backlog.equals(SuiteReport.END_TO_END_BACKLOG)) {
                LagChart.of(heading(backlog) + ": lag over time", runs)
                        .ifPresentOrElse(
                                chart -> page.figure(
                                        chart.render(),
                                        "The sink's lag at each reading (every 250 ms): how long before it the last"
                                                + " transaction the sink had applied had committed on the source."),
                                () -> page.note("This report keeps no lag readings over time (it was written before"
                                        + " report.json kept them): report.md has the lag every 5 s."));
            }
            SvgBarChart cpu = CpuChart.of(heading(backlog) + ": " + work.cpuUnit(), work, StageRuns.of(runs));
            if (cpu.segmentCount() > 0) {
                page.figure(
                        cpu.render(),
                        "The parts are each component's median over the runs, the whisker the runs' totals. The Connect"
                                + " JVM holds the worker and its broker; a client is a process of its own.");
            }
        }
        return page.render();
    }

    private static SvgBarChart throughput(String backlog, List<ReportEntry> entries) {
        Work work = Work.of(backlog);
        return ThroughputChart.of(
                heading(backlog) + ": throughput, " + work.rateUnit(), work, StageRuns.of(of(backlog, entries)));
    }

    private static String throughputCaption(String backlog) {
        if (backlog.equals(SuiteReport.END_TO_END_BACKLOG)) {
            return "Generated: the rate pgbench committed at on the source during the load; applied: its transactions"
                    + " over the load and the wait until the sink had applied them all.";
        }
        return Work.of(backlog) == Work.ROWS
                ? "Rows per second: each row inserted, updated or loaded counts once."
                : "pgbench transactions per second (three updates and an insert each), over the time until the"
                        + " last one was read or applied.";
    }

    /** The backlogs {@code entries} measured, known ones in their order, then any other in the report's. */
    private static List<String> backlogs(List<ReportEntry> entries) {
        List<String> backlogs = new ArrayList<>();
        entries.stream().map(ReportEntry::backlog).distinct().forEach(backlogs::add);
        backlogs.sort(Comparator.comparingInt(HtmlReport::place));
        return backlogs;
    }

    private static List<ReportEntry> of(String backlog, List<ReportEntry> entries) {
        return entries.stream().filter(e -> e.backlog().equals(backlog)).toList();
    }

    private static int place(String backlog) {
        for (int i = 0; i < BACKLOGS.size(); i++) {
            if (BACKLOGS.get(i).key().equals(backlog)) {
                return i;
            }
        }
        return BACKLOGS.size();
    }

    private static String heading(String backlog) {
        int place = place(backlog);
        return place < BACKLOGS.size() ? BACKLOGS.get(place).heading() : backlog;
    }
}
