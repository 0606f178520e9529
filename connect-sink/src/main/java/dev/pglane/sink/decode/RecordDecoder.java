package dev.pglane.sink.decode;

import dev.pglane.sink.admit.RecordAdmission;
import dev.pglane.sink.assemble.ChangeRecord;
import dev.pglane.sink.assemble.TransactionAssembler;
import dev.pglane.wire.RowKey;
import dev.pglane.wire.TransactionKey;
import dev.pglane.wire.envelope.ChangeEvent;
import dev.pglane.wire.marker.Marker;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.connect.errors.ConnectException;
import org.apache.kafka.connect.errors.DataException;
import org.apache.kafka.connect.sink.SinkRecord;

/**
 * Turns one record into the assembler's input: a marker, a change, or a record the sink cannot use (one that is
 * not pglane's, or one {@link RecordAdmission} refuses). Not thread-safe: every decode thread has its own.
 */
public final class RecordDecoder {

    /** One decoded Kafka record. */
    public sealed interface Decoded permits MarkerRecord, Change, PerKeyRecord, Undecodable {}

    public record MarkerRecord(Marker marker, TopicPartition partition, long offset) implements Decoded {}

    public record Change(ChangeRecord record) implements Decoded {}

    /**
     * A record that a source keying changes by row writes only for consumers that keep one row per key (and for log
     * compaction): a tombstone (a null value), or a key move's delete ({@link ChangeEvent#isKeyMoveDelete()}). It
     * belongs to no transaction's count, and the sink, which applies whole transactions, skips it.
     */
    public record PerKeyRecord(TopicPartition partition, long offset) implements Decoded {}

    /**
     * A record the sink does not apply: it is not a pglane change, or it is one that may not be applied here.
     *
     * @param keyXid the xid from its {@code pglane.xid} header or its key, or -1 when neither tells
     * @param refused true for a pglane change that {@link RecordAdmission} refused
     */
    public record Undecodable(SinkRecord record, long keyXid, DataException cause, boolean refused) implements Decoded {
        public String describe() {
            return "record " + record.topic() + "-" + record.kafkaPartition() + "@" + record.kafkaOffset();
        }
    }

    private final String markerTopic;
    private final RecordAdmission admission;
    private final PayloadReader payloads;
    private final EnvelopeReader envelopes;

    public RecordDecoder(
            String markerTopic, RecordAdmission admission, PayloadReader payloads, EnvelopeReader envelopes) {
        this.markerTopic = markerTopic;
        this.admission = admission;
        this.payloads = payloads;
        this.envelopes = envelopes;
    }

    public Decoded decode(SinkRecord record) {
        TopicPartition partition = new TopicPartition(record.topic(), record.kafkaPartition());
        long offset = record.kafkaOffset();
        try {
            Object value = payloads.value(record);
            if (markerTopic.equals(record.topic())) {
                return new MarkerRecord(envelopes.marker(value), partition, offset);
            }
            if (value == null) {
                return new PerKeyRecord(partition, offset);
            }
            ChangeEvent event = envelopes.change(value, () -> payloads.key(record) == null);
            if (event.isKeyMoveDelete()) {
                return new PerKeyRecord(partition, offset);
            }
            String refusal = admission.refusal(record.topic(), event);
            long keyXid = keyXid(record);
            if (refusal == null) {
                refusal = xidMismatch(keyXid, event);
            }
            if (refusal == null) {
                refusal = NumericBounds.problem(event);
            }
            if (refusal != null) {
                return new Undecodable(record, keyXid, new DataException(refusal), true);
            }
            return new Change(new ChangeRecord(partition, offset, event, TransactionAssembler.estimateSize(event)));
        } catch (DataException | IllegalArgumentException e) {
            DataException cause = e instanceof DataException d ? d : new DataException(e.getMessage(), e);
            return new Undecodable(record, keyXid(record), cause, false);
        } catch (ConnectException e) {
            throw e; // the setup's problem, not the record's: a registry out of reach, a converter that does not fit
        } catch (RuntimeException e) {
            // bytes from whoever may write the topic: whatever the readers trip over in them is this record's problem
            return new Undecodable(record, keyXid(record), new DataException("cannot be read: " + e, e), false);
        }
    }

    /**
     * Why a change whose key (or {@code pglane.xid} header) names another xid than its transaction block is refused:
     * the source writes the same xid in both, so which transaction such a record belongs to is unknown, and taken by
     * its block it could overfill another transaction, which stops the task instead of setting the record aside.
     */
    private static String xidMismatch(long keyXid, ChangeEvent event) {
        if (keyXid < 0 || event.transaction() == null || event.transaction().xid() == keyXid) {
            return null;
        }
        return "its key names xid " + keyXid + " but its transaction block xid "
                + event.transaction().xid() + "; the source writes the same xid in both";
    }

    /** A change keyed by row carries its xid in a header, others in their key. */
    private long keyXid(SinkRecord record) {
        long headerXid = RowKey.headerXid(record.headers());
        if (headerXid >= 0) {
            return headerXid;
        }
        try {
            return TransactionKey.xid(payloads.key(record));
        } catch (RuntimeException e) {
            return -1L;
        }
    }
}
