package dev.pglane.local.bench.snapshot;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.pglane.local.bench.sustained.StepLag;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

@Timeout(value = 10, unit = TimeUnit.SECONDS)
class SnapshotReportTest {
    private static final long ROWS = 1_000_000;
    private static final long BYTES = 200_000_000;
    private static final SnapshotData.Info DATA =
            new SnapshotData.Info(List.of(900_000L, 10L, 100L, 0L, 99_890L), BYTES, 300_000_000, 12.0);

    private static SnapshotMeasurement run(SnapshotSystem system, int threads, int run, double seconds) {
        return new SnapshotMeasurement(system, threads, run, seconds, ROWS, BYTES, 1.0, 2.0, 3.0, null, null, null);
    }

    private static SnapshotMeasurement underLoad(int run, long walBytes) {
        return new SnapshotMeasurement(
                SnapshotSystem.PGLANE_UNDER_LOAD, 2, run, 10.0, ROWS, BYTES, 1.0, 2.0, 3.0, walBytes, 480.0, null);
    }

    private static SnapshotMeasurement underLoad(int run, double seconds, double lagP99) {
        StepLag lag = new StepLag(100, 0, lagP99 / 2, lagP99, lagP99 + 1, 0.1, 0.1, true, "bounded");
        return new SnapshotMeasurement(
                SnapshotSystem.PGLANE_UNDER_LOAD, 2, run, seconds, ROWS, BYTES, 1.0, 2.0, 3.0, 1L << 20, 480.0, lag);
    }

    @Test
    void ratiosAreTakenWithinEachRunThenTheMedianOverTheRuns() {
        SnapshotReport report = new SnapshotReport("env", DATA);
        // run 1: Debezium 20 s, pglane 2 s with 2 threads (10×), 5 s with 1 thread (4×)
        report.add(run(SnapshotSystem.DEBEZIUM, 1, 1, 20.0));
        report.add(run(SnapshotSystem.PGLANE_ENGINE, 2, 1, 2.0));
        report.add(run(SnapshotSystem.PGLANE_ENGINE, 1, 1, 5.0));
        // run 2: everything half as fast, the ratios the same but for 2 threads (8×)
        report.add(run(SnapshotSystem.DEBEZIUM, 1, 2, 40.0));
        report.add(run(SnapshotSystem.PGLANE_ENGINE, 2, 2, 5.0));
        report.add(run(SnapshotSystem.PGLANE_ENGINE, 1, 2, 10.0));
        // run 3: Debezium failed, so pglane's runs of it pair with nothing
        report.add(run(SnapshotSystem.PGLANE_ENGINE, 2, 3, 1.0));
        // into Kafka: a ratio of its own, which the engine's does not include
        report.add(run(SnapshotSystem.PGLANE_KAFKA, 2, 1, 10.0));

        List<SnapshotReport.Ratio> ratios = report.sourceVsDebezium();

        assertEquals(2, ratios.size());
        assertEquals(1, ratios.get(0).threads());
        assertEquals(4.0, ratios.get(0).ratio().median(), 1e-9);
        assertEquals(9.0, ratios.get(1).ratio().median(), 1e-9);
        assertEquals(8.0, ratios.get(1).ratio().min(), 1e-9);
        assertEquals(2, SnapshotReport.best(ratios).orElseThrow().threads());
        List<SnapshotReport.Ratio> kafka = report.kafkaVsDebezium();
        assertEquals(1, kafka.size());
        assertEquals(2.0, kafka.get(0).ratio().median(), 1e-9);
    }

    @Test
    void summariesGiveRowsMegabytesAndCpuPerMillionRows() {
        SnapshotReport report = new SnapshotReport("env", DATA);
        report.add(run(SnapshotSystem.COPY_PIPE, 5, 1, 4.0));
        report.add(run(SnapshotSystem.COPY_PIPE, 5, 2, 5.0));
        report.add(run(SnapshotSystem.COPY_PIPE, 5, 3, 6.0));

        SnapshotReport.Summary copy = report.summaries().get(0);

        assertEquals(3, copy.runs());
        assertEquals(5.0, copy.seconds().median(), 1e-9);
        assertEquals(200_000, copy.rowsPerSecond().median(), 1e-6);
        assertEquals(40.0, copy.megabytesPerSecond().median(), 1e-9);
        assertEquals(6.0, copy.cpuPerMillionRows().median(), 1e-9, "1 + 2 + 3 CPU seconds over a million rows");
        assertNull(copy.walMaxBytes());
    }

    @Test
    void targetRowsSayMetOrNotAndNotMeasured() {
        SnapshotReport report = new SnapshotReport("env", DATA);
        report.add(run(SnapshotSystem.COPY_PIPE, 5, 1, 4.0));
        report.add(run(SnapshotSystem.PGLANE_END_TO_END, 2, 1, 10.0));
        report.add(underLoad(1, 80L << 20));

        List<String> rows = new SnapshotMarkdown(report).targetRows();

        assertTrue(rows.get(0).contains("| not measured | not measured |"), rows.get(0));
        assertTrue(rows.get(1).contains("0.40×") && rows.get(1).endsWith("| no |\n"), rows.get(1));
        assertTrue(rows.get(2).contains("80.0 MB") && rows.get(2).endsWith("| no |\n"), rows.get(2));

        SnapshotReport small = new SnapshotReport("env", DATA);
        small.add(underLoad(1, 10L << 20));
        assertTrue(new SnapshotMarkdown(small).targetRows().get(2).endsWith("| yes |\n"));
    }

    @Test
    void underLoadIsComparedWithTheRunWithoutLoadOfTheSameThreadsAndTheStreamLagJudged() {
        SnapshotReport report = new SnapshotReport("env", DATA);
        // run 1: without load 5 s with 2 threads, 8 s with 1; under load (2 threads) 10 s: 0.5×, not 0.8×
        report.add(run(SnapshotSystem.PGLANE_END_TO_END, 2, 1, 5.0));
        report.add(run(SnapshotSystem.PGLANE_END_TO_END, 1, 1, 8.0));
        report.add(underLoad(1, 10.0, 1.5));
        // run 2: 4 s and 20 s: 0.2×; the stream's p99 3.5 s
        report.add(run(SnapshotSystem.PGLANE_END_TO_END, 2, 2, 4.0));
        report.add(underLoad(2, 20.0, 3.5));
        report.add(run(SnapshotSystem.PGLANE_END_TO_END, 2, 3, 4.0));
        report.add(underLoad(3, 5.0, 2.5));

        List<SnapshotReport.Ratio> ratios = report.underLoadVsIdle();

        assertEquals(1, ratios.size());
        assertEquals(2, ratios.get(0).threads());
        assertEquals(0.5, ratios.get(0).ratio().median(), 1e-9);
        assertEquals(0.2, ratios.get(0).ratio().min(), 1e-9);
        assertEquals(0.8, ratios.get(0).ratio().max(), 1e-9);
        assertEquals(2.5, report.streamLagP99().median(), 1e-9);
        List<String> rows = new SnapshotMarkdown(report).targetRows();
        assertTrue(rows.get(3).contains("0.50× (0.20..0.80)") && rows.get(3).endsWith("| yes |\n"), rows.get(3));
        assertTrue(rows.get(4).contains("2.50 s (1.50..3.50)") && rows.get(4).endsWith("| no |\n"), rows.get(4));
        SnapshotReport.Summary loaded = report.summaries().stream()
                .filter(s -> s.system() == SnapshotSystem.PGLANE_UNDER_LOAD)
                .findFirst()
                .orElseThrow();
        assertEquals(3.5, loaded.streamLagMax().median(), 1e-9, "p99 + 1 of each run: 2.5, 4.5, 3.5");
    }

    @Test
    void theSectionListsEverySystemAndTheFailedRuns() {
        SnapshotReport report = new SnapshotReport("Loaded on two cores.", DATA);
        report.add(run(SnapshotSystem.COPY_PIPE, 5, 1, 4.0));
        report.add(run(SnapshotSystem.PGLANE_END_TO_END, 2, 1, 8.0));
        report.fail("Debezium", 1, new IllegalStateException("the engine stopped"));

        String body = new SnapshotMarkdown(report).body();

        assertTrue(body.startsWith("Loaded on two cores."), body);
        assertTrue(
                body.contains("| " + SnapshotSystem.COPY_PIPE.label(5) + " | 1 | 4.00 (4.00..4.00) | 250,000"), body);
        assertTrue(body.contains("| 2 | - | - | 0.50× (0.50..0.50) | - |"), body);
        assertTrue(body.contains("- Debezium, run 1: the engine stopped"), body);
        assertTrue(report.hasFailures());
    }

    @Test
    void reportJsonEntriesCarryTheStagesFigures(@TempDir Path dir) throws Exception {
        SnapshotReport report = new SnapshotReport("env", DATA);
        report.add(run(SnapshotSystem.DEBEZIUM, 1, 1, 20.0));
        report.add(underLoad(1, 3L << 20));

        report.mergeInto(dir);

        JsonNode runs =
                new ObjectMapper().readTree(dir.resolve("report.json").toFile()).path("runs");
        assertEquals(2, runs.size());
        JsonNode debezium = runs.get(0);
        assertEquals("snapshot", debezium.path("stage").asText());
        assertEquals("debezium", debezium.path("system").asText());
        assertEquals(50_000, debezium.path("rows_per_s").asDouble(), 1e-6);
        assertEquals(3.0, debezium.path("cpu_s").path("client").asDouble(), 1e-9);
        assertFalse(debezium.has("wal_retained_max_bytes"));
        JsonNode loaded = runs.get(1);
        assertEquals("pglane_e2e_load", loaded.path("system").asText());
        assertEquals(3L << 20, loaded.path("wal_retained_max_bytes").asLong());
        assertEquals(3.0, loaded.path("cpu_s").path("connect").asDouble(), 1e-9);
        assertEquals(480.0, loaded.path("load_tx_per_s").asDouble(), 1e-9);
        assertFalse(loaded.has("stream_lag_s"));
        report.add(underLoad(2, 10.0, 1.25));
        report.mergeInto(dir);
        JsonNode lag = new ObjectMapper()
                .readTree(dir.resolve("report.json").toFile())
                .path("runs")
                .get(2)
                .path("stream_lag_s");
        assertEquals(1.25, lag.path("p99").asDouble(), 1e-9);
        assertEquals(100, lag.path("probes").asInt());
    }
}
