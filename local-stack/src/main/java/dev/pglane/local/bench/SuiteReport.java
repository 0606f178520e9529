package dev.pglane.local.bench;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.pglane.local.bench.ceiling.CeilingJson;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

/**
 * {@code report.json}, the machine-readable report of all benchmark stages in the shape issue #6 defines: one entry
 * per measured run, {@code {"backlog", "stage", "system", "workers", "seconds", "tx_per_s", "changes_per_s",
 * "cpu_s": {"source_pg", "target_pg", "connect"}}} (plus {@code run}, the repetition), so anyone can recompute the
 * ratios. A CPU figure is null for a part the run did not involve. Stages: {@code source}, {@code sink},
 * {@code sink_latency} (the target behind a delaying proxy), {@code e2e} (backlog {@code pgbench_load}, with the
 * load's rates and lag besides, and every lag reading as {@code "lag_samples": [[seconds since the load started, lag
 * seconds], ...]}) and {@code snapshot} (written by {@code snapshot.SnapshotReport}); source entries add
 * {@code consumer} and put a client process's CPU under {@code client}. pglane's source and sink entries add their
 * stages' CPU per transaction and the ceilings projected from them ({@link CeilingJson}).
 *
 * <p>Each benchmark replaces the entries of the stage and backlog it measured and keeps every other entry as it was,
 * so the stages can be run one at a time.
 */
public final class SuiteReport {
    public static final String FILE = "report.json";
    /** The end-to-end stage's load: pgbench running while the pipeline runs, not a backlog written beforehand. */
    public static final String END_TO_END_BACKLOG = "pgbench_load";

    private static final ObjectMapper JSON = new ObjectMapper().enable(SerializationFeature.INDENT_OUTPUT);

    private SuiteReport() {}

    /** Writes {@code dir/report.json} with {@code measured} in place of earlier entries of {@code stage} on {@code backlog}. */
    static Path merge(Path dir, String backlog, String stage, List<CatchUpMeasurement> measured) throws IOException {
        return replace(
                dir,
                backlog,
                stage,
                measured.stream().map(m -> entry(backlog, stage, m)).toList());
    }

    /**
     * Writes {@code dir/report.json} with the source stage's runs in place of earlier source entries of their
     * backlogs. pg_recvlogical and the engine runs put their process's CPU under {@code client}, and {@code connect}
     * is null for them; {@code consumer} tells pglane's run into Kafka from its run into a no-op consumer.
     */
    static Path mergeSource(Path dir, List<BenchReport.Run> runs) throws IOException {
        Path file = dir.resolve(FILE);
        for (String backlog :
                runs.stream().map(r -> r.workload().label()).distinct().toList()) {
            List<ObjectNode> entries = runs.stream()
                    .filter(r -> r.workload().label().equals(backlog))
                    .flatMap(r -> r.measurements().stream().map(m -> sourceEntry(backlog, r.run(), m)))
                    .toList();
            replace(dir, backlog, "source", entries);
        }
        return file;
    }

    /** Writes {@code dir/report.json} with the end-to-end runs in place of earlier ones (backlog {@code pgbench_load}). */
    static Path mergeEndToEnd(Path dir, List<EndToEndMeasurement> measured) throws IOException {
        return replace(
                dir,
                END_TO_END_BACKLOG,
                "e2e",
                measured.stream().map(SuiteReport::endToEndEntry).toList());
    }

    /** Writes {@code dir/report.json} with {@code entries} in place of earlier entries of {@code stage} on {@code backlog}. */
    public static Path replace(Path dir, String backlog, String stage, List<ObjectNode> entries) throws IOException {
        Path file = dir.resolve(FILE);
        ObjectNode root = Files.exists(file) ? (ObjectNode) JSON.readTree(file.toFile()) : JSON.createObjectNode();
        ArrayNode runs = JSON.createArrayNode();
        for (JsonNode entry : root.path("runs")) {
            if (!(entry.path("stage").asText().equals(stage)
                    && entry.path("backlog").asText().equals(backlog))) {
                runs.add(entry);
            }
        }
        entries.forEach(runs::add);
        root.set("runs", runs);
        Files.createDirectories(dir);
        JSON.writeValue(file.toFile(), root);
        return file;
    }

    private static ObjectNode entry(String backlog, String stage, CatchUpMeasurement m) {
        ObjectNode entry = JSON.createObjectNode();
        entry.put("backlog", backlog);
        entry.put("stage", stage);
        entry.put("system", m.system());
        entry.put("workers", m.workers());
        entry.put("run", m.run());
        entry.put("seconds", round(m.seconds()));
        entry.put("tx_per_s", round(m.transactionsPerSecond()));
        entry.put("changes_per_s", round(m.changesPerSecond()));
        ObjectNode cpu = entry.putObject("cpu_s");
        cpu.put("source_pg", round(m.sourcePgCpu()));
        cpu.put("target_pg", round(m.targetPgCpu()));
        if (m.connectCpu() == null) {
            cpu.putNull("connect");
        } else {
            cpu.put("connect", round(m.connectCpu()));
            CeilingJson.put(entry, PipelineStages.sink(m.connectCpuBreakdown(), m.targetPgCpu(), m.transactions()));
        }
        return entry;
    }

    private static ObjectNode sourceEntry(String backlog, int run, Measurement m) {
        SourceSystem system = SourceSystem.of(m.system());
        ObjectNode entry = JSON.createObjectNode();
        entry.put("backlog", backlog);
        entry.put("stage", "source");
        entry.put("system", system.system());
        entry.put("consumer", system.consumer());
        entry.put("workers", 1);
        entry.put("run", run);
        entry.put("seconds", round(m.seconds()));
        entry.put("tx_per_s", round(m.transactionsPerSecond()));
        entry.put("changes_per_s", round(m.changesPerSecond()));
        ObjectNode cpu = entry.putObject("cpu_s");
        cpu.put("source_pg", round(m.sourceCpuSeconds()));
        cpu.putNull("target_pg");
        if (system.runsInConnect()) {
            cpu.put("connect", round(m.clientCpuSeconds()));
            CeilingJson.put(
                    entry,
                    PipelineStages.source(
                            m.clientCpuBreakdown(), m.clientCpuSeconds(), m.sourceCpuSeconds(), m.transactions()));
        } else {
            cpu.putNull("connect");
            cpu.put("client", round(m.clientCpuSeconds()));
        }
        return entry;
    }

    private static ObjectNode endToEndEntry(EndToEndMeasurement m) {
        ObjectNode entry = JSON.createObjectNode();
        entry.put("backlog", END_TO_END_BACKLOG);
        entry.put("stage", "e2e");
        entry.put("system", "pglane");
        entry.put("format", m.format().option());
        entry.put("workers", m.workers());
        entry.put("run", m.run());
        entry.put("seconds", round(m.loadSeconds() + m.drainSeconds()));
        entry.put("tx_per_s", round(m.applyRate()));
        entry.put("changes_per_s", round(4 * m.applyRate()));
        entry.put("load_s", round(m.loadSeconds()));
        entry.put("drain_s", round(m.drainSeconds()));
        entry.put("generation_tx_per_s", round(m.generationRate()));
        entry.put("lag_max_s", round(m.lag().maxSeconds()));
        entry.put("lag_end_s", round(m.lag().endSeconds()));
        entry.put("lag_first_third_mean_s", round(m.lag().firstThirdMean()));
        entry.put("lag_last_third_mean_s", round(m.lag().lastThirdMean()));
        entry.put("lag_bounded", m.lag().bounded());
        ArrayNode samples = entry.putArray("lag_samples");
        m.lag()
                .samples()
                .forEach(s -> samples.addArray().add(round(s.atSeconds())).add(round(s.lagSeconds())));
        ObjectNode cpu = entry.putObject("cpu_s");
        cpu.put("source_pg", round(m.cpu().sourcePg()));
        cpu.put("target_pg", round(m.cpu().targetPg()));
        cpu.put("connect", round(m.cpu().jvm()));
        return entry;
    }

    private static double round(double value) {
        return Math.round(value * 1000) / 1000.0;
    }
}
