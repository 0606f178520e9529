package dev.pglane.local.bench.snapshot;

import java.util.List;

/**
 * The sizes of the snapshot stage (issue #14): what the source holds before the initial load and how it is loaded.
 *
 * @param scale {@code pgbench -i -s} of the source's pgbench tables (100: 10,000,000 {@code pgbench_accounts} rows)
 * @param wideRows rows of the wide table, about 20 columns of mixed types and 500 bytes a row
 * @param threads the {@code snapshot.threads} values of pglane's source, one set of runs each
 * @param rate {@code pgbench -R}: TPC-B transactions per second on the source during the run that measures the WAL
 *     the slot holds back
 */
public record SnapshotOptions(int scale, int wideRows, List<Integer> threads, int rate) {
    public SnapshotOptions {
        if (threads.isEmpty()) {
            throw new IllegalArgumentException("--snapshot-threads needs at least one value");
        }
        threads = List.copyOf(threads);
    }

    /** The largest thread count: the one the WAL run uses. */
    public int maxThreads() {
        return threads.stream().mapToInt(Integer::intValue).max().orElseThrow();
    }
}
