package dev.pglane.local.bench;

import dev.pglane.local.bench.html.HtmlReport;
import java.io.IOException;
import java.nio.file.Path;
import java.util.List;
import java.util.Set;

/**
 * {@code ./pglane-local bench-report [--report FILE] [--svg FILE]}: draws a benchmark's {@code report.json} again
 * ({@link HtmlReport}) without running anything, e.g. after the drawing changed, or for the README's chart.
 */
public final class BenchReportCommand {
    static final String USAGE = String.join(
            "\n",
            "Draws a benchmark's report.json again, without running anything: writes report.html beside it",
            "(throughput per stage and configuration, the end-to-end stage's lag over time, CPU per component)",
            "and, with --svg, the first backlog's throughput chart as an SVG file of its own (the README's",
            "docs/bench-throughput.svg).",
            "options (all optional):",
            "  --report FILE            the report to draw (default target/bench/report.json)",
            "  --svg FILE               where to write the throughput chart as well");

    private BenchReportCommand() {}

    public static void main(String[] args) {
        if (List.of(args).contains("--help")) {
            System.out.println("usage: ./pglane-local bench-report [options]\n" + USAGE);
            return;
        }
        BenchArgs words;
        try {
            words = BenchArgs.parse(args, USAGE, Set.of(), Set.of());
        } catch (IllegalArgumentException e) {
            System.err.println("bench-report: " + e.getMessage());
            System.exit(2);
            return;
        }
        Path report = words.path("--report", "target/bench/" + SuiteReport.FILE);
        String svg = words.text("--svg", null);
        try {
            System.out.println("report: " + HtmlReport.write(report));
            if (svg != null) {
                HtmlReport.writeThroughputSvg(report, Path.of(svg));
                System.out.println("chart: " + svg);
            }
        } catch (IOException e) {
            System.err.println("bench-report: " + e);
            System.exit(1);
        }
    }
}
