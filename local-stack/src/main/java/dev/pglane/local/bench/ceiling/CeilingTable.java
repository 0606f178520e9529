package dev.pglane.local.bench.ceiling;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * The markdown table of stage costs and projected ceilings: a row per stage with its µs per transaction in each
 * column (a configuration or a system), the serial stages beside issue #36's target, then the projected ceiling per
 * host size and the stage that caps it, and the model in words.
 */
public final class CeilingTable {
    private final Map<String, List<StageCost>> columns = new LinkedHashMap<>();
    private final boolean judged;

    /** @param judged whether the transactions are pgbench's, which the serial stages' target is set for */
    public CeilingTable(boolean judged) {
        this.judged = judged;
    }

    /** Adds a column: {@code stages} as measured in {@code heading}'s runs. */
    public CeilingTable column(String heading, List<StageCost> stages) {
        columns.put(heading, stages);
        return this;
    }

    public boolean isEmpty() {
        return columns.isEmpty();
    }

    /** The table and the model's paragraph; {@code notes} follow it as they are. */
    public String render(String... notes) {
        StringBuilder md = new StringBuilder("| stage | kind | target µs/tx |");
        columns.keySet().forEach(heading -> md.append(' ').append(heading).append(" |"));
        md.append("\n|---|---|---:|").append("---:|".repeat(columns.size())).append('\n');
        stageKinds().forEach((stage, kind) -> {
            boolean targeted = kind == StageCost.Kind.SERIAL;
            md.append("| ")
                    .append(stage)
                    .append(" | ")
                    .append(kind.label())
                    .append(" | ")
                    .append(targeted && judged ? format("≤ %.0f", CeilingProjection.SERIAL_TARGET_MICROS) : "-")
                    .append(" |");
            columns.values()
                    .forEach(stages -> md.append(' ')
                            .append(cell(stages, stage, targeted && judged))
                            .append(" |"));
            md.append('\n');
        });
        for (int cores : CeilingProjection.CORES) {
            md.append("| projected ceiling, ").append(cores).append(" cores | | |");
            columns.values()
                    .forEach(stages -> md.append(' ')
                            .append(ceiling(CeilingProjection.project(stages, cores)))
                            .append(" |"));
            md.append('\n');
        }
        md.append("\nCPU µs per source transaction by stage, from thread CPU times (medians over the runs)")
                .append(judged ? "; the target is issue #36's for each serial stage, per pgbench transaction. " : ". ")
                .append(CeilingProjection.MODEL)
                .append('\n');
        for (String note : notes) {
            md.append('\n').append(note).append('\n');
        }
        return md.toString();
    }

    /** Every stage of any column, in the order first met. */
    private Map<String, StageCost.Kind> stageKinds() {
        Map<String, StageCost.Kind> kinds = new LinkedHashMap<>();
        columns.values().forEach(stages -> stages.forEach(s -> kinds.putIfAbsent(s.name(), s.kind())));
        return kinds;
    }

    private static String cell(List<StageCost> stages, String stage, boolean targeted) {
        StageCost found =
                stages.stream().filter(s -> s.name().equals(stage)).findFirst().orElse(null);
        if (found == null) {
            return "-";
        }
        double micros = found.microsPerTransaction();
        String figure = format("%,.1f", micros);
        if (!targeted) {
            return figure;
        }
        return figure + (micros <= CeilingProjection.SERIAL_TARGET_MICROS ? " (met)" : " (not met)");
    }

    private static String ceiling(Ceiling ceiling) {
        return Double.isInfinite(ceiling.transactionsPerSecond())
                ? "-"
                : format("%,.0f tx/s, capped by %s", ceiling.transactionsPerSecond(), ceiling.cappedBy());
    }

    private static String format(String pattern, Object... values) {
        return String.format(Locale.ROOT, pattern, values);
    }
}
