package dev.pglane.local.bench;

import java.util.Map;

/**
 * One subscriber applying one backlog onto a fresh copy of the source's initial state.
 *
 * @param system {@link SinkConnectorRun#SYSTEM} or {@link NativeSubscriberRun#SYSTEM}
 * @param workers the sessions applying at once ({@code apply.workers}; 1 for PostgreSQL's one apply worker)
 * @param run which repetition, from 1
 * @param seconds wall time from the subscriber's creation until the target's applied position reached the backlog's
 *     end
 * @param firstCommitSeconds wall time from the subscriber's creation until its first applied transaction: its start-up
 *     (connecting, joining the consumer group, the first fetch), which {@code seconds} includes
 * @param sourcePgCpu CPU seconds of the source server meanwhile (for PostgreSQL's subscriber, its walsender decoding
 *     the WAL; pglane's sink reads Kafka, so the source idles)
 * @param targetPgCpu CPU seconds of the target server meanwhile
 * @param connectCpu CPU seconds of the JVM that runs the Connect worker (and the broker the sink reads from), or null
 *     when no Connect is involved
 * @param connectCpuBreakdown that JVM's CPU by thread group; empty for PostgreSQL's subscriber
 */
record CatchUpMeasurement(
        String system,
        int workers,
        int run,
        double seconds,
        double firstCommitSeconds,
        long transactions,
        long changes,
        double sourcePgCpu,
        double targetPgCpu,
        Double connectCpu,
        Map<String, Double> connectCpuBreakdown) {

    double transactionsPerSecond() {
        return transactions / seconds;
    }

    double changesPerSecond() {
        return changes / seconds;
    }

    CatchUpConfiguration configuration() {
        return new CatchUpConfiguration(system, workers);
    }
}
