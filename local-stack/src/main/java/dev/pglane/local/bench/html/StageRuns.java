package dev.pglane.local.bench.html;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * One stage's runs on a backlog, by configuration in the stage's order: the runs each bar's median is taken over.
 *
 * @param heading the stage, for people
 */
record StageRuns(String heading, Map<Configuration, List<ReportEntry>> runs) {

    /** {@code entries} (of one backlog) by stage, in the order the report lists the stages. */
    static List<StageRuns> of(List<ReportEntry> entries) {
        Map<String, List<ReportEntry>> byStage = new LinkedHashMap<>();
        entries.forEach(
                e -> byStage.computeIfAbsent(e.stage(), s -> new ArrayList<>()).add(e));
        List<StageRuns> stages = new ArrayList<>();
        byStage.values().forEach(runs -> {
            Map<Configuration, List<ReportEntry>> byConfiguration = new LinkedHashMap<>();
            runs.stream()
                    .sorted(Comparator.comparing(
                                    (ReportEntry e) -> Configuration.of(e).order())
                            .thenComparing(e -> Configuration.of(e).label())
                            .thenComparingInt(ReportEntry::run))
                    .forEach(e -> byConfiguration
                            .computeIfAbsent(Configuration.of(e), c -> new ArrayList<>())
                            .add(e));
            stages.add(new StageRuns(heading(runs.get(0)), byConfiguration));
        });
        return stages;
    }

    private static String heading(ReportEntry entry) {
        String stage = switch (entry.stageKind()) {
            case "source" -> "Source stage";
            case "sink" -> "Sink stage (catch-up)";
            case "sink_latency" -> "Sink stage behind latency";
            case "e2e" -> "End to end";
            case "snapshot" -> "Snapshot stage";
            default -> entry.stageKind();
        };
        return entry.inAvro() ? stage + " (Avro)" : stage;
    }
}
