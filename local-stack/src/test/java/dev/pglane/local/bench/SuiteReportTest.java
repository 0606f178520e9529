package dev.pglane.local.bench;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

@Timeout(value = 10, unit = TimeUnit.SECONDS)
class SuiteReportTest {
    private static final ObjectMapper JSON = new ObjectMapper();

    @TempDir
    Path dir;

    private static CatchUpMeasurement pglane(int run, double seconds) {
        return new CatchUpMeasurement("pglane", 4, run, seconds, 0.5, 1000, 4000, 0.1, 2.5, 7.25, Map.of("other", 1.0));
    }

    @Test
    void entriesHaveTheShapeOfIssueSix() throws Exception {
        CatchUpMeasurement subscriber =
                new CatchUpMeasurement("pg_native", 1, 1, 0.5, 0.1, 1000, 4000, 0.75, 1.5, null, Map.of());

        SuiteReport.merge(dir, "pgbench", "sink", List.of(pglane(1, 2.0), subscriber));

        JsonNode runs = JSON.readTree(dir.resolve(SuiteReport.FILE).toFile()).path("runs");
        assertEquals(2, runs.size());
        JsonNode first = runs.get(0);
        assertEquals("pgbench", first.path("backlog").asText());
        assertEquals("sink", first.path("stage").asText());
        assertEquals("pglane", first.path("system").asText());
        assertEquals(4, first.path("workers").asInt());
        assertEquals(2.0, first.path("seconds").asDouble());
        assertEquals(500.0, first.path("tx_per_s").asDouble());
        assertEquals(2000.0, first.path("changes_per_s").asDouble());
        assertEquals(0.1, first.path("cpu_s").path("source_pg").asDouble());
        assertEquals(2.5, first.path("cpu_s").path("target_pg").asDouble());
        assertEquals(7.25, first.path("cpu_s").path("connect").asDouble());
        assertTrue(runs.get(1).path("cpu_s").path("connect").isNull(), "no Connect in PostgreSQL's subscriber");
    }

    @Test
    void pglanesEntriesCarryTheirStagesCostsAndCeilings() throws Exception {
        // 1,000 transactions: task thread 0.05 s = 50 µs each, workers 0.2 s = 200 µs, target 2.5 s = 2,500 µs
        CatchUpMeasurement sink = new CatchUpMeasurement(
                "pglane",
                4,
                1,
                2.0,
                0.5,
                1000,
                4000,
                0.1,
                2.5,
                7.25,
                Map.of(ThreadCpu.TASK_THREAD, 0.05, ThreadCpu.pglane("worker"), 0.2, "other", 1.0));
        CatchUpMeasurement subscriber =
                new CatchUpMeasurement("pg_native", 1, 1, 0.5, 0.1, 1000, 4000, 0.75, 1.5, null, Map.of());

        SuiteReport.merge(dir, "pgbench", "sink", List.of(sink, subscriber));

        JsonNode runs = JSON.readTree(dir.resolve(SuiteReport.FILE).toFile()).path("runs");
        JsonNode stages = runs.get(0).path("stages");
        assertEquals(3, stages.size(), stages.toString());
        assertEquals(PipelineStages.SINK_TASK, stages.get(0).path("stage").asText());
        assertEquals("serial", stages.get(0).path("kind").asText());
        assertEquals(50.0, stages.get(0).path("us_per_tx").asDouble());
        assertEquals(200.0, stages.get(1).path("us_per_tx").asDouble());
        assertEquals("database, parallel", stages.get(2).path("kind").asText());
        assertEquals(2500.0, stages.get(2).path("us_per_tx").asDouble());
        // 8 cores: target 8e6 / 2,500 = 3,200 caps (task thread 20,000; workers on 7 cores 35,000);
        // 32 cores: target 12,800 (task thread 20,000; workers on 31 cores 155,000)
        JsonNode ceiling = runs.get(0).path("ceiling");
        assertEquals(8, ceiling.get(0).path("cores").asInt());
        assertEquals(3200, ceiling.get(0).path("tx_per_s").asLong());
        assertEquals(PipelineStages.TARGET_PG, ceiling.get(0).path("capped_by").asText());
        assertEquals(12_800, ceiling.get(1).path("tx_per_s").asLong());
        assertTrue(runs.get(1).path("stages").isMissingNode(), "PostgreSQL's subscriber has no pglane stages");
    }

    @Test
    void aRunReplacesTheEntriesOfItsStageAndKeepsTheOthers() throws Exception {
        String other = "{\"backlog\":\"pgbench\",\"stage\":\"source\",\"system\":\"pg_recvlogical\",\"extra\":[1]}";
        String bulkSink = "{\"backlog\":\"bulk\",\"stage\":\"sink\",\"system\":\"pglane\"}";
        String oldSink = "{\"backlog\":\"pgbench\",\"stage\":\"sink\",\"system\":\"pglane\",\"seconds\":99}";
        Files.writeString(
                dir.resolve(SuiteReport.FILE),
                "{\"note\":\"kept\",\"runs\":[" + other + "," + oldSink + "," + bulkSink + "]}");

        SuiteReport.merge(dir, "pgbench", "sink", List.of(pglane(1, 2.0), pglane(2, 4.0)));

        JsonNode root = JSON.readTree(dir.resolve(SuiteReport.FILE).toFile());
        assertEquals("kept", root.path("note").asText());
        JsonNode runs = root.path("runs");
        assertEquals(4, runs.size());
        assertEquals(JSON.readTree(other), runs.get(0));
        assertEquals(JSON.readTree(bulkSink), runs.get(1));
        assertEquals(2.0, runs.get(2).path("seconds").asDouble());
        assertEquals(4.0, runs.get(3).path("seconds").asDouble());
    }

    @Test
    void sourceEntriesNameTheSystemAndTheConsumerAndPutAClientsCpuApartFromConnect() throws Exception {
        Backlog.Info info = new Backlog.Info(Workload.BULK, 10, 10_000, null, null, 1, null, 1.0);
        List<Measurement> measured = List.of(
                new Measurement(SourceSystem.RECVLOGICAL.label(), 2.0, 10, 10_000, 1.5, 0.5, Map.of(), 0L),
                new Measurement(SourceSystem.PGLANE_KAFKA.label(), 4.0, 10, 10_000, 1.5, 6.0, Map.of(), 0L),
                new Measurement(SourceSystem.DEBEZIUM.label(), 8.0, 10, 10_000, 1.5, 9.0, Map.of(), 0L));

        SuiteReport.mergeSource(dir, List.of(new BenchReport.Run(Workload.BULK, 2, info, measured)));

        JsonNode runs = JSON.readTree(dir.resolve(SuiteReport.FILE).toFile()).path("runs");
        assertEquals(3, runs.size());
        JsonNode recv = runs.get(0);
        assertEquals("bulk", recv.path("backlog").asText());
        assertEquals("source", recv.path("stage").asText());
        assertEquals("pg_recvlogical", recv.path("system").asText());
        assertEquals(2, recv.path("run").asInt());
        assertEquals(5_000.0, recv.path("changes_per_s").asDouble());
        assertEquals(0.5, recv.path("cpu_s").path("client").asDouble());
        assertTrue(recv.path("cpu_s").path("connect").isNull());
        JsonNode kafka = runs.get(1);
        assertEquals("pglane", kafka.path("system").asText());
        assertEquals("kafka_json", kafka.path("consumer").asText());
        assertEquals(6.0, kafka.path("cpu_s").path("connect").asDouble());
        assertEquals("debezium", runs.get(2).path("system").asText());
        assertEquals(1.25, runs.get(2).path("tx_per_s").asDouble());
    }

    @Test
    void endToEndEntriesKeepEveryLagReading() throws Exception {
        List<LagSummary.Sample> readings = List.of(
                new LagSummary.Sample(0.25, 0.1), new LagSummary.Sample(0.5, 0.3), new LagSummary.Sample(0.75, 0.2));
        EndToEndMeasurement measured = new EndToEndMeasurement(
                BenchFormat.JSON, 4, 1, 1.0, 100, 0.5, LagSummary.of(readings, 1.0), new CpuMeter.Reading(1, 2, 3));

        SuiteReport.mergeEndToEnd(dir, List.of(measured));

        JsonNode entry = JSON.readTree(dir.resolve(SuiteReport.FILE).toFile())
                .path("runs")
                .get(0);
        assertEquals("e2e", entry.path("stage").asText());
        assertEquals(JSON.readTree("[[0.25, 0.1], [0.5, 0.3], [0.75, 0.2]]"), entry.path("lag_samples"));
        assertEquals(0.3, entry.path("lag_max_s").asDouble());
    }
}
