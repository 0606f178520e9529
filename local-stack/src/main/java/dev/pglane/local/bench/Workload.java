package dev.pglane.local.bench;

import java.util.ArrayList;
import java.util.List;

/** The backlogs of the benchmarks: the two of the reference figures (shared/reference/baseline-figures.md) and #36's. */
public enum Workload {
    /**
     * TPC-B-like pgbench transactions: three updates and one insert each. Every transaction updates one of the scale's
     * few branch rows, so each depends on an earlier one: the adversarial case for parallel apply.
     */
    PGBENCH(4, "TPC-B-like pgbench transactions"),
    /** Inserts of narrow rows in 1,000-row transactions. */
    BULK(1000, "1,000-row insert transactions"),
    /**
     * pgbench {@code -N} at a scale of at least {@link #INDEPENDENT_MIN_SCALE}: one update of a random
     * pgbench_accounts row (of 5,000,000 at scale 50) and one insert into keyless pgbench_history, no branch or teller
     * update. Two transactions rarely touch the same account row, and inserts into a keyless table do not order
     * transactions, so nearly every transaction is independent of the others, as most OLTP is.
     */
    INDEPENDENT(2, "pgbench -N transactions (no branch and teller updates)");

    /** The scale below which {@link #INDEPENDENT}'s transactions would collide on account rows too often. */
    public static final int INDEPENDENT_MIN_SCALE = 50;

    private final int changesPerTransaction;
    private final String description;

    Workload(int changesPerTransaction, String description) {
        this.changesPerTransaction = changesPerTransaction;
        this.description = description;
    }

    /** The backlog's key in report.json and its name in the reports. */
    public String label() {
        return name().toLowerCase();
    }

    /** What its transactions are, for people. */
    public String description() {
        return description;
    }

    /** Whether pgbench writes it (at the backlog shape's scale for it), rather than a procedure of the bench. */
    boolean isPgbench() {
        return this != BULK;
    }

    /** Row changes per transaction. */
    long changes(long transactions) {
        return changesPerTransaction * transactions;
    }

    /**
     * The workloads that {@code --workload} names: pgbench, bulk, independent, both (pgbench and bulk) or a
     * comma-separated list of the first three.
     */
    static List<Workload> fromOption(String value) {
        if (value.equals("both")) {
            return List.of(PGBENCH, BULK);
        }
        List<Workload> workloads = new ArrayList<>();
        for (String word : value.split(",")) {
            Workload workload = switch (word.trim()) {
                case "pgbench" -> PGBENCH;
                case "bulk" -> BULK;
                case "independent" -> INDEPENDENT;
                default ->
                    throw new IllegalArgumentException(
                            "--workload must be pgbench, bulk, independent, both or a list of the first three: "
                                    + value);
            };
            if (workloads.contains(workload)) {
                throw new IllegalArgumentException("--workload names " + word.trim() + " twice: " + value);
            }
            workloads.add(workload);
        }
        return List.copyOf(workloads);
    }
}
