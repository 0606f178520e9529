package dev.pglane.local.bench.html;

import dev.pglane.local.bench.Workload;
import dev.pglane.local.bench.snapshot.SnapshotReport;

/**
 * What a backlog's rates and CPU are counted in: pgbench's transactions, or rows where a transaction is a batch of a
 * thousand of them (bulk) or there are none (the snapshot).
 */
enum Work {
    TRANSACTIONS("tx/s", "CPU seconds per 1,000 transactions", 1_000),
    ROWS("rows/s", "CPU seconds per million rows", 1_000_000);

    private final String rateUnit;
    private final String cpuUnit;
    private final double cpuPer;

    Work(String rateUnit, String cpuUnit, double cpuPer) {
        this.rateUnit = rateUnit;
        this.cpuUnit = cpuUnit;
        this.cpuPer = cpuPer;
    }

    static Work of(String backlog) {
        return backlog.equals(Workload.BULK.label()) || backlog.equals(SnapshotReport.STAGE) ? ROWS : TRANSACTIONS;
    }

    String rateUnit() {
        return rateUnit;
    }

    String cpuUnit() {
        return cpuUnit;
    }

    double rate(ReportEntry run) {
        return this == TRANSACTIONS ? run.transactionsPerSecond() : run.changesPerSecond();
    }

    /** {@code cpuSeconds} of {@code run} per thousand transactions or per million rows of it. */
    double cpuPerUnit(ReportEntry run, double cpuSeconds) {
        return cpuSeconds / (rate(run) * run.seconds()) * cpuPer;
    }
}
