package dev.pglane.it.bench;

import java.util.Map;

/**
 * One reader catching up on one backlog.
 *
 * @param seconds wall time from the reader's start until it had the backlog's last transaction
 * @param sourceCpuSeconds CPU of the source server meanwhile (mostly its walsender decoding the WAL)
 * @param clientCpuSeconds CPU of the reader: pg_recvlogical's process, or the whole JVM for the connector (the
 *     worker, the connector and the broker it writes to)
 * @param clientCpuBreakdown for the connector, the JVM's CPU by thread group; empty for pg_recvlogical
 */
public record Measurement(
        String system,
        double seconds,
        long transactions,
        long changes,
        double sourceCpuSeconds,
        double clientCpuSeconds,
        Map<String, Double> clientCpuBreakdown) {

    public double changesPerSecond() {
        return changes / seconds;
    }

    public double transactionsPerSecond() {
        return transactions / seconds;
    }
}
