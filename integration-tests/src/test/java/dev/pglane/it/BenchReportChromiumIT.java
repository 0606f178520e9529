package dev.pglane.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.pglane.local.bench.html.HtmlReport;
import java.awt.image.BufferedImage;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * A reader opens the report.html of a full bench run in a browser: headless Chromium draws every chart (throughput
 * per backlog and stage, the end-to-end lag over time, CPU per component), each with as many bars or points as the
 * report has values, in the colours its legend names. The report is built here, run by run as the bench writes it;
 * nothing is measured. The timeout leaves room for installing Chromium on the first run.
 */
@Timeout(value = 600, unit = TimeUnit.SECONDS)
class BenchReportChromiumIT {
    private static final Pattern CHART =
            Pattern.compile("<svg [^>]*aria-label=\"([^\"]*)\"[^>]*>(.*?)</svg>", Pattern.DOTALL);
    private static final Pattern BAR_FILL = Pattern.compile("<rect class=\"bar\"[^>]* fill=\"(#[0-9A-Fa-f]{6})\"");
    private static final Pattern LINE_STROKE =
            Pattern.compile("<polyline class=\"line\"[^>]* stroke=\"(#[0-9A-Fa-f]{6})\"");
    private static final Pattern HEIGHT = Pattern.compile("<svg [^>]*height=\"([0-9.]+)\"");
    private static final int WINDOW_WIDTH = 1100;

    @TempDir
    static Path dir;

    private static FullRun report;
    private static Path html;
    /** The page as the browser parsed it. */
    private static String dom;

    /** What one chart must show. */
    private record Expected(String title, int bars, int lines, int points) {}

    /** One chart as the browser has it: its title and the inside of its {@code <svg>}. */
    private record Drawn(String title, String body) {
        int count(String element) {
            return body.split(Pattern.quote(element), -1).length - 1;
        }

        /** How many bars (or lines) of each colour the chart draws. */
        Map<Integer, Integer> colours(Pattern shape) {
            Map<Integer, Integer> colours = new LinkedHashMap<>();
            Matcher matcher = shape.matcher(body);
            while (matcher.find()) {
                colours.merge(Integer.parseInt(matcher.group(1).substring(1), 16), 1, Integer::sum);
            }
            return colours;
        }
    }

    @BeforeAll
    static void writeTheReportAndInstallChromium() throws Exception {
        report = FullRun.build();
        Path json = dir.resolve("report.json");
        Files.writeString(json, report.json());
        html = HtmlReport.write(json);
        HeadlessChromium.ensureInstalled();
        dom = HeadlessChromium.dumpDom(html);
    }

    @Test
    @DisplayName("the browser's DOM has every chart, a bar per value and a line with its points per end-to-end run")
    void everyChartHasItsBarsAndPoints() {
        List<Drawn> charts = drawn(dom);

        List<Expected> expected = report.expected();
        assertEquals(
                expected.stream().map(Expected::title).toList(),
                charts.stream().map(Drawn::title).toList(),
                "the charts, in the page's order");
        for (int i = 0; i < expected.size(); i++) {
            Expected chart = expected.get(i);
            Drawn drawn = charts.get(i);
            assertEquals(chart.bars(), drawn.count("<rect class=\"bar\""), chart.title() + ": bars");
            assertEquals(chart.lines(), drawn.count("<polyline class=\"line\""), chart.title() + ": lines");
            assertEquals(chart.points(), drawn.count("<circle class=\"point\""), chart.title() + ": points");
        }
    }

    @Test
    @DisplayName(
            "the screenshot shows each chart's bars, one band of colour per bar beside its legend's, and its lines")
    void theScreenshotShowsEveryChartInItsColours() throws Exception {
        List<Drawn> charts = drawn(dom);
        double height = HEIGHT.matcher(dom)
                .results()
                .mapToDouble(m -> Double.parseDouble(m.group(1)))
                .sum();
        BufferedImage shot = HeadlessChromium.screenshot(html, WINDOW_WIDTH, (int) height + 120 * charts.size() + 400);

        List<Screenshot.Region> regions = new Screenshot(shot).charts();
        assertEquals(charts.size(), regions.size(), "a white chart area per chart in the screenshot");
        for (int i = 0; i < charts.size(); i++) {
            Drawn chart = charts.get(i);
            Screenshot.Region region = regions.get(i);
            chart.colours(BAR_FILL)
                    .forEach((colour, bars) -> assertEquals(
                            bars + 1,
                            region.bands(colour),
                            chart.title() + ": bands of #" + Integer.toHexString(colour)
                                    + ", its bars and its legend's"));
            chart.colours(LINE_STROKE)
                    .forEach((colour, lines) -> assertTrue(
                            region.span(colour) > region.width() * 0.6,
                            chart.title() + ": the line of #" + Integer.toHexString(colour)
                                    + " runs across the chart"));
        }
    }

    private static List<Drawn> drawn(String dom) {
        List<Drawn> charts = new ArrayList<>();
        Matcher matcher = CHART.matcher(dom);
        while (matcher.find()) {
            charts.add(new Drawn(matcher.group(1).replace("&amp;", "&"), matcher.group(2)));
        }
        return charts;
    }

    /**
     * report.json of a full run with three runs a configuration, built a configuration at a time, counting what each
     * chart has to show: a throughput bar per configuration (two for the end-to-end stage: generated and applied), a
     * CPU part per component the configuration involved, a lag line per end-to-end run.
     */
    private static final class FullRun {
        private static final ObjectMapper JSON = new ObjectMapper();
        private static final int RUNS = 3;
        private static final int LAG_READINGS = 240;

        private final ArrayNode runs = JSON.createArrayNode();
        private final Map<String, Integer> bars = new LinkedHashMap<>();
        private final Map<String, Integer> cpuParts = new LinkedHashMap<>();

        static FullRun build() {
            FullRun run = new FullRun();
            for (String backlog : List.of("pgbench", "bulk")) {
                double scale = backlog.equals("pgbench") ? 1 : 50;
                run.source(backlog, "pg_recvlogical", "dev_null", 20_000 * scale, "client")
                        .source(backlog, "pglane", "kafka_json", 6_500 * scale, "connect")
                        .source(backlog, "pglane", "noop", 21_000 * scale, "client")
                        .source(backlog, "debezium", "noop", 6_000 * scale, "client")
                        .configuration(backlog, "sink", "pg_native", 1, 22_000 * scale, cpu(2.0, 4.0, null, null));
                for (int workers : List.of(1, 2, 4, 8)) {
                    run.configuration(backlog, "sink", "pglane", workers, 9_000 * scale, cpu(0.5, 4.5, 12.0, null));
                }
            }
            for (int workers : List.of(1, 8)) {
                run.configuration("pgbench", "sink_latency", "pglane", workers, 5_000, cpu(0.5, 5.0, 14.0, null));
            }
            run.endToEnd();
            run.snapshot("copy_pipe", 1, 400_000, cpu(8.0, 9.0, null, 6.0))
                    .snapshot("debezium", 1, 140_000, cpu(9.0, null, null, 20.0))
                    .snapshot("pglane_engine", 1, 370_000, cpu(10.0, null, null, 12.0))
                    .snapshot("pglane_engine", 2, 375_000, cpu(10.0, null, null, 13.0))
                    .snapshot("pglane_kafka", 2, 115_000, cpu(10.0, null, 30.0, null))
                    .snapshot("pglane_e2e", 2, 48_000, cpu(12.0, 25.0, 60.0, null));
            return run;
        }

        /** CPU seconds of a run by component; null for a component the run did not involve. */
        private static Map<String, Double> cpu(double sourcePg, Double targetPg, Double connect, Double client) {
            Map<String, Double> cpu = new LinkedHashMap<>();
            cpu.put("source_pg", sourcePg);
            cpu.put("target_pg", targetPg);
            cpu.put("connect", connect);
            cpu.put("client", client);
            return cpu;
        }

        private FullRun source(String backlog, String system, String consumer, double changesPerS, String reader) {
            Map<String, Double> cpu = cpu(3, null, reader.equals("connect") ? 20.0 : null, null);
            if (reader.equals("client")) {
                cpu.put("client", 4.0);
            }
            for (int run = 1; run <= RUNS; run++) {
                entry(backlog, "source", system, 1, run, changesPerS / 4, cpu).put("consumer", consumer);
            }
            return counted(backlog, 1, cpu);
        }

        private FullRun configuration(
                String backlog, String stage, String system, int workers, double txPerS, Map<String, Double> cpu) {
            for (int run = 1; run <= RUNS; run++) {
                entry(backlog, stage, system, workers, run, txPerS, cpu);
            }
            return counted(backlog, 1, cpu);
        }

        private FullRun snapshot(String system, int threads, double rowsPerS, Map<String, Double> cpu) {
            for (int run = 1; run <= RUNS; run++) {
                entry("snapshot", "snapshot", system, threads, run, rowsPerS, cpu)
                        .put("rows_per_s", rowsPerS);
            }
            return counted("snapshot", 1, cpu);
        }

        /** Three runs of 60 s of load at about 2,000 tx/s, the lag read every 250 ms, rising and falling. */
        private void endToEnd() {
            Map<String, Double> cpu = cpu(60.0, 8.0, 35.0, null);
            for (int run = 1; run <= RUNS; run++) {
                ObjectNode entry = entry("pgbench_load", "e2e", "pglane", 4, run, 1_980, cpu)
                        .put("format", "json")
                        .put("generation_tx_per_s", 2_000.0);
                ArrayNode samples = entry.putArray("lag_samples");
                for (int i = 1; i <= LAG_READINGS; i++) {
                    double at = i * 0.25;
                    samples.addArray().add(at).add(0.3 * run + Math.abs(Math.sin(at / 7)));
                }
            }
            counted("pgbench_load", 2, cpu);
        }

        /** A run's entry; the runs of a configuration differ by 5% either side, so each bar has its whisker. */
        private ObjectNode entry(
                String backlog,
                String stage,
                String system,
                int workers,
                int run,
                double rate,
                Map<String, Double> cpu) {
            double perSecond = rate * (1 + 0.05 * (run - 2));
            ObjectNode entry = runs.addObject()
                    .put("backlog", backlog)
                    .put("stage", stage)
                    .put("system", system)
                    .put("workers", workers)
                    .put("run", run)
                    .put("seconds", 10.0)
                    .put("tx_per_s", perSecond)
                    .put(
                            "changes_per_s",
                            backlog.equals("pgbench") || backlog.equals("pgbench_load") ? 4 * perSecond : perSecond);
            ObjectNode cpuSeconds = entry.putObject("cpu_s");
            cpu.forEach((component, seconds) -> {
                if (seconds == null) {
                    cpuSeconds.putNull(component);
                } else {
                    cpuSeconds.put(component, seconds);
                }
            });
            return entry;
        }

        private FullRun counted(String backlog, int throughputBars, Map<String, Double> cpu) {
            bars.merge(backlog, throughputBars, Integer::sum);
            cpuParts.merge(
                    backlog, (int) cpu.values().stream().filter(s -> s != null).count(), Integer::sum);
            return this;
        }

        String json() {
            ObjectNode root = JSON.createObjectNode();
            root.set("runs", runs);
            return root.toString();
        }

        /** The page's charts in order: per backlog its throughput, the end-to-end lag, then its CPU. */
        List<Expected> expected() {
            Map<String, String> headings = Map.of(
                    "pgbench", "pgbench backlog (TPC-B transactions)",
                    "bulk", "bulk backlog (1,000-row transactions)",
                    "pgbench_load", "End to end: pgbench's load through the whole pipeline",
                    "snapshot", "Snapshot: the initial load of existing rows");
            List<Expected> expected = new ArrayList<>();
            bars.forEach((backlog, count) -> {
                boolean rows = backlog.equals("bulk") || backlog.equals("snapshot");
                String heading = headings.get(backlog);
                expected.add(new Expected(heading + ": throughput, " + (rows ? "rows/s" : "tx/s"), count, 0, 0));
                if (backlog.equals("pgbench_load")) {
                    expected.add(new Expected(heading + ": lag over time", 0, RUNS, RUNS * LAG_READINGS));
                }
                expected.add(new Expected(
                        heading + ": CPU seconds per " + (rows ? "million rows" : "1,000 transactions"),
                        cpuParts.get(backlog),
                        0,
                        0));
            });
            return expected;
        }
    }
}
