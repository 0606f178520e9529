package dev.pglane.source.offset;

import dev.pglane.wire.Lsn;
import java.util.Map;
import org.apache.kafka.connect.data.Schema;
import org.apache.kafka.connect.header.Header;
import org.apache.kafka.connect.source.SourceRecord;

/**
 * A record the {@link AckTracker} can recognise when Connect acknowledges it. Connect hands the
 * pre-transformation instance back to {@code commitRecord}, so the record itself carries its place in
 * the emit order; no lookup by value is needed.
 */
public final class TrackedRecord extends SourceRecord {
    private final Lsn confirmLsn;
    /** Set once by {@link AckTracker#dispatch} on the poll thread, before Connect sees the record. */
    private volatile long sequence = -1;

    /**
     * @param headers the record's headers, or {@code null} for none
     * @param confirmLsn the LSN the slot may confirm once this record and all before it are acknowledged:
     *     an END marker's end LSN or a HEARTBEAT's position; {@code null} for every other record
     */
    public TrackedRecord(
            Map<String, ?> sourcePartition,
            Map<String, ?> sourceOffset,
            String topic,
            Schema keySchema,
            Object key,
            Schema valueSchema,
            Object value,
            Long timestamp,
            Iterable<Header> headers,
            Lsn confirmLsn) {
        super(sourcePartition, sourceOffset, topic, null, keySchema, key, valueSchema, value, timestamp, headers);
        this.confirmLsn = confirmLsn;
    }

    /** The END or HEARTBEAT position this record confirms, or {@code null}. */
    public Lsn confirmLsn() {
        return confirmLsn;
    }

    long sequence() {
        return sequence;
    }

    void sequence(long value) {
        sequence = value;
    }
}
