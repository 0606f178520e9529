package dev.pglane.local.bench.html;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.OptionalDouble;

/**
 * One measured run as {@code report.json} holds it ({@code SuiteReport} and {@code SnapshotReport} write them), read
 * for the pictures. Fields a stage does not write read as empty, so that reports of earlier versions still draw.
 */
final class ReportEntry {
    /** The suffix of a stage measured in Avro ({@code SuiteBench.stageName}); JSON's stages have none. */
    private static final String AVRO_SUFFIX = "_avro";

    private static final ObjectMapper JSON = new ObjectMapper();

    private final JsonNode json;

    ReportEntry(JsonNode json) {
        this.json = json;
    }

    /** The entries of {@code file}, in its order. */
    static List<ReportEntry> read(Path file) throws IOException {
        JsonNode runs = JSON.readTree(file.toFile()).path("runs");
        if (!runs.isArray()) {
            throw new IOException(file + " has no \"runs\": not a benchmark report");
        }
        List<ReportEntry> entries = new ArrayList<>();
        runs.forEach(run -> entries.add(new ReportEntry(run)));
        return entries;
    }

    String backlog() {
        return json.path("backlog").asText();
    }

    /** As the report names it, e.g. {@code sink_latency_avro}. */
    String stage() {
        return json.path("stage").asText();
    }

    /** The stage without its format, e.g. {@code sink_latency}. */
    String stageKind() {
        return inAvro() ? stage().substring(0, stage().length() - AVRO_SUFFIX.length()) : stage();
    }

    boolean inAvro() {
        return stage().endsWith(AVRO_SUFFIX);
    }

    String system() {
        return json.path("system").asText();
    }

    /** What the source stage's reader fed, e.g. {@code kafka_json}; empty for other stages. */
    String consumer() {
        return json.path("consumer").asText("");
    }

    /** What the end-to-end stage's connectors wrote, e.g. {@code json}; empty for other stages. */
    String format() {
        return json.path("format").asText("");
    }

    /** apply.workers, or the snapshot's threads. */
    int workers() {
        return json.path("workers").asInt(1);
    }

    int run() {
        return json.path("run").asInt(1);
    }

    double seconds() {
        return json.path("seconds").asDouble();
    }

    double transactionsPerSecond() {
        return json.path("tx_per_s").asDouble();
    }

    /** Row changes per second; the snapshot stage's rows per second. */
    double changesPerSecond() {
        return json.path("changes_per_s").asDouble();
    }

    /** The rate pgbench's load committed at while the end-to-end stage ran; empty for other stages. */
    OptionalDouble generatedPerSecond() {
        JsonNode rate = json.path("generation_tx_per_s");
        return rate.isNumber() ? OptionalDouble.of(rate.asDouble()) : OptionalDouble.empty();
    }

    /** CPU seconds by component ({@code source_pg}, {@code connect}, ...), of the components the run involved. */
    Map<String, Double> cpuSeconds() {
        Map<String, Double> cpu = new LinkedHashMap<>();
        json.path("cpu_s").properties().forEach(component -> {
            if (component.getValue().isNumber()) {
                cpu.put(component.getKey(), component.getValue().asDouble());
            }
        });
        return cpu;
    }

    /** The end-to-end stage's lag readings, seconds since the load started and lag; empty when none are kept. */
    List<SvgLineChart.Point> lagSamples() {
        List<SvgLineChart.Point> samples = new ArrayList<>();
        json.path("lag_samples")
                .forEach(sample -> samples.add(new SvgLineChart.Point(
                        sample.path(0).asDouble(), sample.path(1).asDouble())));
        return samples;
    }
}
