package dev.pglane.local.kafka;

import dev.pglane.wire.TransactionKey;
import dev.pglane.wire.envelope.ChangeEnvelope;
import dev.pglane.wire.envelope.ChangeEvent;
import dev.pglane.wire.marker.Marker;
import dev.pglane.wire.marker.MarkerCodec;
import java.util.function.Supplier;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.connect.data.SchemaAndValue;
import org.apache.kafka.connect.storage.Converter;

/**
 * Turns raw Kafka records of a pglane source back into Connect data, as a consumer using the connector's converter
 * would ({@link TopicFormat}: JSON with schemas, or Avro through the registry), then into common-wire types.
 *
 * <p>Besides what common-wire checks, it checks the one rule that spans key and value: the key's xid is the xid of
 * the record's transaction (0 for records outside one). A record breaking it fails here, naming where it was read.
 */
public final class WireDecoder {
    private final String markerTopic;
    private final Converter keys;
    private final Converter values;

    /**
     * @param markerTopic the {@code <prefix>.transactions} topic; every other topic holds change records
     * @param format how the source wrote its records
     */
    public WireDecoder(String markerTopic, TopicFormat format) {
        this.markerTopic = markerTopic;
        this.keys = format.converter(true);
        this.values = format.converter(false);
    }

    public WireRecord decode(ConsumerRecord<byte[], byte[]> record) {
        String topic = record.topic();
        SchemaAndValue key = keys.toConnectData(topic, record.key());
        SchemaAndValue value = values.toConnectData(topic, record.value());
        long keyXid = TransactionKey.xid(key.value());
        if (topic.equals(markerTopic)) {
            Marker marker = MarkerCodec.fromStruct(value.value());
            check(keyXid == marker.keyXid(), record, () -> "key xid " + keyXid + " but marker " + marker);
            return new WireRecord.MarkerRecord(topic, record.partition(), record.offset(), marker);
        }
        ChangeEvent event = ChangeEnvelope.fromStruct(value.value());
        long xid = event.transaction() == null ? 0 : event.transaction().xid();
        check(keyXid == xid, record, () -> "key xid " + keyXid + " but transaction.xid " + xid);
        check(
                event.source().txId() == xid,
                record,
                () -> "source.txId " + event.source().txId() + " but xid " + xid);
        return new WireRecord.Change(topic, record.partition(), record.offset(), keyXid, event);
    }

    /** The problem is described only when it is one: every record of a topic read to its end passes here. */
    private static void check(boolean holds, ConsumerRecord<byte[], byte[]> record, Supplier<String> problem) {
        if (!holds) {
            throw new IllegalStateException(
                    record.topic() + "-" + record.partition() + "@" + record.offset() + ": " + problem.get());
        }
    }
}
