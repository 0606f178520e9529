package dev.pglane.local.bench;

import java.nio.file.Path;
import java.util.Locale;

/**
 * What a {@link Backlog} writes.
 *
 * @param scale pgbench's {@code -i -s} for the TPC-B backlog (and the bulk backlog's pgbench tables)
 * @param independentScale pgbench's {@code -i -s} for the independent ({@code -N}) backlog: large, so that its
 *     transactions rarely meet on an account row
 * @param clients pgbench's {@code -c}
 * @param jobs pgbench's {@code -j}
 * @param transactionsPerClient pgbench's {@code -t}
 * @param bulkRows rows of the bulk backlog (in 1,000-row transactions)
 * @param pgbench the pgbench binary
 */
public record BacklogShape(
        int scale, int independentScale, int clients, int jobs, int transactionsPerClient, int bulkRows, Path pgbench) {

    /** The default {@code independentScale}. */
    static final int INDEPENDENT_SCALE = Workload.INDEPENDENT_MIN_SCALE;

    /** pgbench's tables' scale while {@code workload} is written. */
    int scale(Workload workload) {
        return workload == Workload.INDEPENDENT ? independentScale : scale;
    }

    /**
     * {@code workload}'s pgbench commands, for reports: {@code pgbench -i -s 10, then -c 8 -j 2 -t 30000}, or
     * {@code pgbench -i -s 50, then -N -c 8 -j 2 -t 5000}.
     */
    String pgbenchCommand(Workload workload) {
        return String.format(
                Locale.ROOT,
                "pgbench -i -s %d, then %s-c %d -j %d -t %d",
                scale(workload),
                workload == Workload.INDEPENDENT ? "-N " : "",
                clients,
                jobs,
                transactionsPerClient);
    }

    /** The backlog of {@code workload} in words, for reports. */
    String describe(Workload workload) {
        return switch (workload) {
            case PGBENCH -> pgbenchCommand(Workload.PGBENCH);
            case INDEPENDENT ->
                "independent (pgbench -N, scale " + independentScale + "): " + pgbenchCommand(Workload.INDEPENDENT);
            case BULK -> String.format(Locale.ROOT, "bulk %d rows in 1,000-row transactions", bulkRows);
        };
    }
}
