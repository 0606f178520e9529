package dev.pglane.local.bench.html;

import static dev.pglane.local.bench.html.SvgDocuments.elements;
import static dev.pglane.local.bench.html.SvgDocuments.inline;
import static dev.pglane.local.bench.html.SvgDocuments.parse;
import static dev.pglane.local.bench.html.SvgDocuments.texts;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.w3c.dom.Element;

@Timeout(value = 10, unit = TimeUnit.SECONDS)
class HtmlReportTest {
    private static final ObjectMapper JSON = new ObjectMapper();

    @TempDir
    Path dir;

    /** A run of 10 s; CPU: 1 s source server, 2 s target server, 3 s Connect JVM. */
    private static ObjectNode run(String backlog, String stage, String system, int workers, int run, double txPerS) {
        ObjectNode entry = JSON.createObjectNode()
                .put("backlog", backlog)
                .put("stage", stage)
                .put("system", system)
                .put("workers", workers)
                .put("run", run)
                .put("seconds", 10.0)
                .put("tx_per_s", txPerS)
                .put("changes_per_s", 4 * txPerS);
        entry.putObject("cpu_s").put("source_pg", 1.0).put("target_pg", 2.0).put("connect", 3.0);
        return entry;
    }

    private static ObjectNode source(String system, String consumer, int run, double txPerS) {
        ObjectNode entry = run("pgbench", "source", system, 1, run, txPerS).put("consumer", consumer);
        ((ObjectNode) entry.path("cpu_s")).putNull("target_pg");
        return entry;
    }

    private static ObjectNode endToEnd(int run, double... lag) {
        ObjectNode entry = run("pgbench_load", "e2e", "pglane", 4, run, 2_000)
                .put("format", "json")
                .put("generation_tx_per_s", 2_010.0);
        ArrayNode samples = entry.putArray("lag_samples");
        for (int i = 0; i < lag.length; i++) {
            samples.addArray().add(0.25 * (i + 1)).add(lag[i]);
        }
        return entry;
    }

    private static List<ReportEntry> entries(ObjectNode... runs) {
        List<ReportEntry> entries = new ArrayList<>();
        for (ObjectNode run : runs) {
            entries.add(new ReportEntry(run));
        }
        return entries;
    }

    private static String page(ObjectNode... runs) {
        return HtmlReport.page(entries(runs), "report.json of today");
    }

    private static List<String> headings(String html) {
        List<String> headings = new ArrayList<>();
        Matcher matcher = Pattern.compile("<h2>(.*?)</h2>").matcher(html);
        while (matcher.find()) {
            headings.add(matcher.group(1));
        }
        return headings;
    }

    @Test
    void aSectionPerBacklogWithThroughputLagOverTimeAndCpu() {
        String html = page(
                run("snapshot", "snapshot", "pglane_engine", 2, 1, 50_000),
                run("snapshot", "snapshot", "copy_pipe", 1, 1, 400_000),
                source("pg_recvlogical", "dev_null", 1, 20_000),
                source("pglane", "kafka_json", 1, 6_000),
                source("pg_recvlogical", "dev_null", 2, 21_000),
                source("pglane", "kafka_json", 2, 7_000),
                run("pgbench", "sink", "pglane", 2, 1, 10_000),
                run("pgbench", "sink", "pg_native", 1, 1, 22_000),
                run("pgbench", "sink", "pglane", 1, 1, 9_000),
                endToEnd(1, 0.3, 0.5, 0.4),
                endToEnd(2, 0.2, 0.6));

        assertEquals(
                List.of(
                        "pgbench backlog (TPC-B transactions)",
                        "End to end: pgbench&#39;s load through the whole pipeline",
                        "Snapshot: the initial load of existing rows"),
                headings(html));
        List<Element> charts = inline(html);
        assertEquals(7, charts.size(), "throughput and CPU per backlog, and the lag over time");
        Element pgbench = charts.get(0);
        assertEquals(
                5, elements(pgbench, "rect", "bar").size(), "2 source systems, the subscriber and 2 worker counts");
        assertEquals(
                List.of(
                        "pg_recvlogical (pgoutput) -> /dev/null",
                        "pglane source -> Kafka (JSON)",
                        "PostgreSQL subscriber",
                        "pglane, 1 worker",
                        "pglane, 2 workers"),
                texts(elements(pgbench, "text", "label")));
        assertEquals(List.of("Source stage", "Sink stage (catch-up)"), texts(elements(pgbench, "text", "section")));
        assertEquals(
                2 * 2 + 3 * 3,
                elements(charts.get(1), "rect", "bar").size(),
                "CPU: the source server and the JVM for the 2 source systems, every component for the 3 sink runs");
        assertEquals(2, elements(charts.get(2), "rect", "bar").size(), "end to end: generated and applied");
        assertEquals(2, elements(charts.get(3), "polyline", "line").size(), "a line per run");
        assertEquals(5, elements(charts.get(3), "circle", "point").size(), "a point per reading");
        assertEquals(
                List.of(
                        "COPY TO STDOUT piped into COPY FROM STDIN (one pipe per table) (pipes 1)",
                        "pglane source snapshot -> no-op (engine) (snapshot.threads 2)"),
                List.of(
                        String.join(
                                " ",
                                texts(elements(charts.get(5), "text", "label")).subList(0, 2)),
                        String.join(
                                " ",
                                texts(elements(charts.get(5), "text", "label")).subList(2, 4))),
                "the snapshot's systems in their order, their long names wrapped");
    }

    @Test
    void aBarIsTheMedianOfItsRunsAndItsWhiskerTheirRange() {
        Element throughput = inline(page(
                        source("pglane", "kafka_json", 1, 300),
                        source("pglane", "kafka_json", 2, 100),
                        source("pglane", "kafka_json", 3, 200)))
                .get(0);

        assertEquals(List.of("200 (100–300)"), texts(elements(throughput, "text", "value")));
        assertEquals(3, elements(throughput, "line", "range").size());
    }

    @Test
    void cpuIsPerThousandTransactionsOnPgbenchAndPerMillionRowsOnBulk() {
        List<Element> charts =
                inline(page(run("pgbench", "sink", "pglane", 1, 1, 1_000), run("bulk", "sink", "pglane", 1, 1, 100)));

        // 10,000 transactions: 0.1, 0.2 and 0.3 s per 1,000
        assertEquals(List.of("0.6"), texts(elements(charts.get(1), "text", "value")));
        assertEquals(
                List.of(
                        "pglane, 1 worker, source server: 0.1 CPU seconds per 1,000 transactions",
                        "pglane, 1 worker, target server: 0.2 CPU seconds per 1,000 transactions",
                        "pglane, 1 worker, Connect JVM (worker and broker): 0.3 CPU seconds per 1,000 transactions"),
                texts(elements(charts.get(1), "rect", "bar")));
        // bulk: 400 rows/s for 10 s, 4,000 rows: 6 s is 1,500 s per million rows
        assertEquals(List.of("400"), texts(elements(charts.get(2), "text", "value")), "rows/s");
        assertEquals(List.of("1,500"), texts(elements(charts.get(3), "text", "value")));
    }

    @Test
    void aReportWithoutLagReadingsSaysSoInPlaceOfTheLine() {
        ObjectNode old = run("pgbench_load", "e2e", "pglane", 4, 1, 2_000);

        String html = page(old);

        assertTrue(html.contains("keeps no lag readings over time"), html);
        assertEquals(
                0,
                inline(html).stream()
                        .filter(c -> c.getAttribute("class").contains("line-chart"))
                        .count());
    }

    @Test
    void thePageStandsAloneAndEscapesWhatTheReportSays() {
        String html = page(
                run("<img src=x onerror=alert(1)>", "sink", "pglane", 1, 1, 10),
                run("pgbench", "<b>stage</b>", "<i>system</i>", 1, 1, 10));

        assertFalse(html.contains("<script"), "no script");
        assertFalse(html.contains("<img"), html);
        assertFalse(html.contains("<b>"), html);
        assertFalse(html.contains("src=\""), "nothing fetched");
        assertFalse(html.contains("href=\""), "nothing fetched");
        assertFalse(html.contains("url("), "nothing fetched");
        assertEquals(
                List.of("http://www.w3.org/2000/svg"),
                Pattern.compile("https?://[^\"' ]+")
                        .matcher(html)
                        .results()
                        .map(m -> m.group())
                        .distinct()
                        .toList(),
                "no address but the SVG namespace");
        assertTrue(headings(html).contains("&lt;img src=x onerror=alert(1)&gt;"), html);
        inline(html).forEach(chart -> assertTrue(chart.getTagName().equals("svg")));
    }

    @Test
    void writesTheHtmlBesideTheReportAndThePgbenchThroughputAsAnSvgOfItsOwn() throws Exception {
        ObjectNode report = JSON.createObjectNode();
        report.putArray("runs")
                .add(run("bulk", "sink", "pglane", 1, 1, 100))
                .add(run("pgbench", "sink", "pglane", 1, 1, 9_000))
                .add(run("pgbench", "sink", "pg_native", 1, 1, 22_000));
        Path json = dir.resolve("report.json");
        Files.writeString(json, report.toString());
        Path svg = dir.resolve("chart.svg");

        Path html = HtmlReport.write(json);
        HtmlReport.writeThroughputSvg(json, svg);

        assertEquals(dir.resolve("report.html").toAbsolutePath(), html);
        assertEquals(4, inline(Files.readString(html)).size());
        Element chart = parse(Files.readString(svg));
        assertEquals(
                "pgbench backlog (TPC-B transactions): throughput, tx/s",
                texts(elements(chart, "text", "title")).get(0));
        assertEquals(2, elements(chart, "rect", "bar").size());
    }
}
