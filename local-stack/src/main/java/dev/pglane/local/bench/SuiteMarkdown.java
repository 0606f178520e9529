package dev.pglane.local.bench;

import dev.pglane.local.bench.ceiling.CeilingProjection;
import dev.pglane.local.bench.ceiling.SerialTarget;
import dev.pglane.local.bench.ceiling.StageCost;
import dev.pglane.local.bench.snapshot.SnapshotMarkdown;
import dev.pglane.local.bench.snapshot.SnapshotReport;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;

/**
 * {@code report.md} of the suite: the targets of issues #6, #14 and #36 as measured in this run (met or not, with the
 * ratios), then the source stage's and each backlog's sink stage's tables and charts, the end-to-end and the snapshot
 * stage's.
 */
final class SuiteMarkdown {
    private static final double SOURCE_VS_RECVLOGICAL = 0.9;
    private static final double SOURCE_VS_DEBEZIUM = 3.0;
    private static final double SINK_VS_NATIVE = 1.0;
    private static final double SCALING_BEHIND_LATENCY = 3.0;
    private static final double NEVER_SLOWER = 1.0;

    private final String environment;
    private final BenchReport source;
    private final List<SinkReport> sinks;
    private final EndToEndReport endToEnd;
    private final SnapshotReport snapshot;

    /**
     * @param endToEnd the end-to-end stage, or null when it was left out
     * @param snapshot the snapshot stage, or null when it was left out
     */
    SuiteMarkdown(
            String environment,
            BenchReport source,
            List<SinkReport> sinks,
            EndToEndReport endToEnd,
            SnapshotReport snapshot) {
        this.environment = environment;
        this.source = source;
        this.sinks = sinks;
        this.endToEnd = endToEnd;
        this.snapshot = snapshot;
    }

    String render() {
        StringBuilder md = new StringBuilder("# pglane benchmark suite\n\n")
                .append(environment)
                .append("\n\n");
        md.append("## Targets of issues #6, #14 and #36, measured side by side in this run\n\n")
                .append("| backlog | target | measured: median (min..max) over the runs | met |\n")
                .append("|---|---|---|---|\n");
        targetRows().forEach(md::append);
        md.append("\n## Source stage\n\n").append(source.tables());
        for (SinkReport sink : sinks) {
            md.append("\n## ")
                    .append(isLatency(sink) ? "Sink stage behind latency" : "Sink stage")
                    .append(inAvro(sink))
                    .append(", ")
                    .append(sink.workload().label())
                    .append(" backlog\n\n")
                    .append(sink.body());
        }
        if (endToEnd != null) {
            md.append("\n## End to end\n\n").append(endToEnd.body());
        }
        if (snapshot != null) {
            md.append("\n## Snapshot (initial load)\n\n").append(new SnapshotMarkdown(snapshot).body());
        }
        return md.toString();
    }

    private List<String> targetRows() {
        List<String> rows = new ArrayList<>();
        for (BenchReport.Summary s : source.summaries()) {
            SourceSystem system = SourceSystem.of(s.system());
            if (!system.isPglane()) {
                continue;
            }
            String backlog = s.workload().label();
            rows.add(row(
                    backlog,
                    s.system() + " ≥ 0.9× pg_recvlogical (changes/s)",
                    s.rateVsRecvLogical(),
                    SOURCE_VS_RECVLOGICAL));
            if (system == SourceSystem.PGLANE_NOOP) {
                rows.add(row(
                        backlog,
                        s.system() + " ≥ 3× Debezium, both in the engine (changes/s)",
                        s.rateVsDebezium(),
                        SOURCE_VS_DEBEZIUM));
            }
        }
        sinks.forEach(sink -> rows.addAll(sinkRows(sink)));
        rows.addAll(serialRows());
        if (endToEnd != null) {
            Boolean bounded = endToEnd.bounded();
            rows.add(String.format(
                    Locale.ROOT,
                    "| pgbench load | end to end: lag bounded under pgbench's load | %d of %d runs bounded | %s |\n",
                    endToEnd.runs().stream().filter(m -> m.lag().bounded()).count(),
                    endToEnd.runs().size(),
                    bounded == null ? "not measured" : bounded ? "yes" : "no"));
        }
        if (snapshot != null) {
            rows.addAll(new SnapshotMarkdown(snapshot).targetRows());
        }
        return rows;
    }

    /** One sink stage's targets: 8 workers ≥ 3× 1 behind latency; otherwise never slower and the subscriber's rate. */
    private static List<String> sinkRows(SinkReport sink) {
        List<String> rows = new ArrayList<>();
        if (isLatency(sink)) {
            rows.add(row(
                    sink.workload().label(),
                    "sink" + inAvro(sink) + " behind a target with latency: 8 workers ≥ 3× 1 worker (tx/s)",
                    sink.workerScaling(8, 1),
                    SCALING_BEHIND_LATENCY));
            return rows;
        }
        SinkReport.StepUp slowest = sink.slowestStepUp();
        if (slowest != null) {
            rows.add(row(
                    sink.workload().label(),
                    "sink" + inAvro(sink) + " catch-up: more workers never slower, the lowest step (" + slowest.fewer()
                            + " → " + slowest.workers() + " workers) ≥ 1.0× (tx/s, #36)",
                    slowest.ratio(),
                    NEVER_SLOWER));
        }
        SinkReport.BestRatio best = sink.bestRatioToNative();
        rows.add(row(
                sink.workload().label(),
                "sink" + inAvro(sink) + " catch-up, best worker count"
                        + (best == null ? "" : " (" + best.configuration() + ")")
                        + " ≥ 1.0× PostgreSQL's subscriber (tx/s)",
                best == null ? null : best.ratio(),
                SINK_VS_NATIVE));
        return rows;
    }

    /** Issue #36's target for the serial stages: a row for the source into Kafka, one per sink stage on pgbench. */
    private List<String> serialRows() {
        List<String> rows = new ArrayList<>();
        serialRow("source into Kafka", source.stageCosts().getOrDefault(Workload.PGBENCH, Map.of()))
                .ifPresent(rows::add);
        for (SinkReport sink : sinks) {
            if (!isLatency(sink) && sink.workload() == Workload.PGBENCH) {
                serialRow("sink" + inAvro(sink), sink.sinkStageCosts()).ifPresent(rows::add);
            }
        }
        return rows;
    }

    /** Issue #36's target for one pipeline's serial stages, met when its heaviest is; empty if none was measured. */
    private static Optional<String> serialRow(String pipeline, Map<String, List<StageCost>> stagesByColumn) {
        SerialTarget heaviest = SerialTarget.heaviest(stagesByColumn);
        return Optional.ofNullable(heaviest)
                .map(h -> String.format(
                        Locale.ROOT,
                        "| pgbench | %s: each serial stage ≤ %.0f µs CPU per transaction (#36) | %s | %s |\n",
                        pipeline,
                        CeilingProjection.SERIAL_TARGET_MICROS,
                        h.describe(),
                        h.met() ? "yes" : "no"));
    }

    private static boolean isLatency(SinkReport sink) {
        return sink.stage().startsWith(DelayedTarget.STAGE);
    }

    /** The stages of the Avro format are named for it ({@link SuiteBench#stageName}); JSON's are not. */
    private static String inAvro(SinkReport sink) {
        return sink.stage().endsWith("_" + BenchFormat.AVRO.option()) ? " (Avro)" : "";
    }

    private static String row(String backlog, String target, Spread ratio, double goal) {
        String met = ratio == null ? "not measured" : ratio.median() >= goal ? "yes" : "no";
        return String.format(Locale.ROOT, "| %s | %s | %s | %s |\n", backlog, target, BenchReport.ratio(ratio), met);
    }
}
