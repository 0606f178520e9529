package dev.pglane.sink;

import dev.pglane.sink.assemble.ChangeRecord;
import dev.pglane.sink.assemble.TransactionAssembler;
import dev.pglane.wire.TransactionKey;
import dev.pglane.wire.envelope.ChangeEnvelope;
import dev.pglane.wire.envelope.ChangeEvent;
import dev.pglane.wire.marker.Marker;
import dev.pglane.wire.marker.MarkerCodec;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.connect.errors.DataException;
import org.apache.kafka.connect.sink.SinkRecord;

/** Turns what Connect delivers into the assembler's input: a marker, a change, or an undecodable record. */
final class SinkRecordDecoder {

    /** One decoded Kafka record. */
    sealed interface Decoded permits MarkerRecord, Change, Undecodable {}

    record MarkerRecord(Marker marker, TopicPartition partition, long offset) implements Decoded {}

    record Change(ChangeRecord record) implements Decoded {}

    /**
     * A record that is not a pglane change.
     *
     * @param keyXid the xid from its key, or -1 when even the key is unreadable
     */
    record Undecodable(SinkRecord record, long keyXid, DataException cause) implements Decoded {
        String describe() {
            return "record " + record.topic() + "-" + record.kafkaPartition() + "@" + record.kafkaOffset();
        }
    }

    private final String markerTopic;

    SinkRecordDecoder(String markerTopic) {
        this.markerTopic = markerTopic;
    }

    boolean isMarkerTopic(String topic) {
        return markerTopic.equals(topic);
    }

    Decoded decode(SinkRecord record) {
        TopicPartition partition = new TopicPartition(record.topic(), record.kafkaPartition());
        long offset = record.kafkaOffset();
        try {
            if (isMarkerTopic(record.topic())) {
                return new MarkerRecord(MarkerCodec.fromStruct(record.value()), partition, offset);
            }
            ChangeEvent event = ChangeEnvelope.fromStruct(record.value());
            return new Change(new ChangeRecord(partition, offset, event, TransactionAssembler.estimateSize(event)));
        } catch (DataException | IllegalArgumentException e) {
            DataException cause = e instanceof DataException d ? d : new DataException(e.getMessage(), e);
            return new Undecodable(record, keyXid(record), cause);
        }
    }

    private static long keyXid(SinkRecord record) {
        try {
            return TransactionKey.xid(record.key());
        } catch (RuntimeException e) {
            return -1L;
        }
    }
}
