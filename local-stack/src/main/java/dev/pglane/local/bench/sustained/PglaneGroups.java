package dev.pglane.local.bench.sustained;

import java.util.List;
import java.util.regex.Pattern;

/**
 * How the bench splits the source's tables over pglane sinks that each apply a table group ({@code
 * apply.scope=consumed_topics}). pgbench's transaction writes all four of its tables, so every transaction spans every
 * group: each group's sink reads every END and applies its share, the case that costs groups the most. The probe's
 * table and {@code pgbench_history}, which its transaction also writes, are in different groups, so a probe row counts
 * as visible only once two groups have applied its transaction.
 *
 * @param tables per group, the tables it applies
 */
record PglaneGroups(List<List<String>> tables) {
    static PglaneGroups of(int groups) {
        return switch (groups) {
            case 1 -> new PglaneGroups(List.of());
            case 2 ->
                new PglaneGroups(List.of(
                        List.of("pgbench_accounts", "pgbench_history"),
                        List.of("pgbench_tellers", "pgbench_branches", LagProbe.TABLE)));
            case 4 ->
                new PglaneGroups(List.of(
                        List.of("pgbench_accounts"),
                        List.of("pgbench_tellers", LagProbe.TABLE),
                        List.of("pgbench_branches"),
                        List.of("pgbench_history")));
            default ->
                throw new IllegalArgumentException("the bench splits its tables into 1, 2 or 4 groups: " + groups);
        };
    }

    /** One sink of whole transactions. */
    boolean whole() {
        return tables.isEmpty();
    }

    /** The topics group {@code group} (from 0) consumes: the marker topic and its tables' change topics. */
    String topicsRegex(String prefix, int group) {
        String quoted = Pattern.quote(prefix);
        return quoted + "\\.(transactions|public\\.(" + String.join("|", tables.get(group)) + "))";
    }
}
