package dev.pglane.local.bench;

import java.util.Map;

/**
 * One reader catching up on one backlog.
 *
 * @param seconds wall time from the reader's start until it had the backlog's last transaction
 * @param sourceCpuSeconds CPU of the source server meanwhile (mostly its walsender decoding the WAL)
 * @param clientCpuSeconds CPU of the reader: pg_recvlogical's process, or the whole JVM for the connector (the
 *     worker, the connector and the broker it writes to)
 * @param clientCpuBreakdown for the connector, the JVM's CPU by thread group; empty for pg_recvlogical
 * @param recordBytes for the connector into Kafka, the bytes of its change records' keys and values as consumers
 *     receive them (uncompressed); 0 for readers that write no records
 */
public record Measurement(
        String system,
        double seconds,
        long transactions,
        long changes,
        double sourceCpuSeconds,
        double clientCpuSeconds,
        Map<String, Double> clientCpuBreakdown,
        long recordBytes) {

    public double changesPerSecond() {
        return changes / seconds;
    }

    /** Bytes of key and value per change on the topics; 0 for readers that write no records. */
    public double bytesPerChange() {
        return (double) recordBytes / changes;
    }

    public double transactionsPerSecond() {
        return transactions / seconds;
    }
}
