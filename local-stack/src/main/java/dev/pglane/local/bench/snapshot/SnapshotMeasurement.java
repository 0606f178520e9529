package dev.pglane.local.bench.snapshot;

import dev.pglane.local.bench.sustained.StepLag;

/**
 * One system loading the source's existing rows once.
 *
 * @param system what loaded them ({@link SnapshotSystem})
 * @param threads pglane's {@code snapshot.threads}; for the COPY pipe its concurrent pipes, for Debezium its
 *     {@code snapshot.max.threads}
 * @param seconds from the start (the connector created, the engine started, the first COPY issued) until every row
 *     was where the system puts it
 * @param rows the rows loaded, checked against the source's
 * @param copyBytes the source tables' COPY-text size: what MB/s is reckoned in
 * @param sourcePgCpu CPU seconds of the source server meanwhile
 * @param targetPgCpu of the target server, or null when the system writes to none
 * @param clientCpu of the client: this JVM (the COPY pipe; the Connect worker and its broker for pglane) or the
 *     engine's JVM (Debezium)
 * @param walMaxBytes the most WAL the slot held back during the load, or null when not sampled
 * @param loadRate the TPC-B transactions per second pgbench achieved on the source meanwhile, or null without load
 * @param streamLag the lag of the stream's own transactions meanwhile (commit on the source to visible on the target,
 *     by a probe), or null without load
 */
public record SnapshotMeasurement(
        SnapshotSystem system,
        int threads,
        int run,
        double seconds,
        long rows,
        long copyBytes,
        double sourcePgCpu,
        Double targetPgCpu,
        double clientCpu,
        Long walMaxBytes,
        Double loadRate,
        StepLag streamLag) {

    public double rowsPerSecond() {
        return rows / seconds;
    }

    public double megabytesPerSecond() {
        return copyBytes / 1e6 / seconds;
    }

    /** All CPU seconds of the run (source server, target server, client) per million rows loaded. */
    public double cpuPerMillionRows() {
        double cpu = sourcePgCpu + clientCpu + (targetPgCpu == null ? 0 : targetPgCpu);
        return cpu / (rows / 1e6);
    }

    /** The same system with the same thread count: the runs a median is taken over. */
    String configuration() {
        return system.label(threads);
    }
}
