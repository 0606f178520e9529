package dev.pglane.it.bench;

/** The two backlogs of the reference figures (shared/reference/baseline-figures.md). */
public enum Workload {
    /** TPC-B-like pgbench transactions: three updates and one insert each. */
    PGBENCH,
    /** Inserts of narrow rows in 1,000-row transactions. */
    BULK;

    public String label() {
        return name().toLowerCase();
    }
}
