package dev.pglane.local.bench;

import java.util.List;

/** The two backlogs of the reference figures (shared/reference/baseline-figures.md). */
public enum Workload {
    /** TPC-B-like pgbench transactions: three updates and one insert each. */
    PGBENCH,
    /** Inserts of narrow rows in 1,000-row transactions. */
    BULK;

    public String label() {
        return name().toLowerCase();
    }

    /** The workloads that {@code --workload} names: pgbench, bulk or both. */
    static List<Workload> fromOption(String value) {
        return switch (value) {
            case "pgbench" -> List.of(PGBENCH);
            case "bulk" -> List.of(BULK);
            case "both" -> List.of(PGBENCH, BULK);
            default -> throw new IllegalArgumentException("--workload must be pgbench, bulk or both: " + value);
        };
    }
}
