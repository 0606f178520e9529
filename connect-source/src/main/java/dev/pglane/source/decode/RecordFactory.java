package dev.pglane.source.decode;

import dev.pglane.source.offset.TrackedRecord;
import dev.pglane.source.pgoutput.TupleData;
import dev.pglane.source.schema.RelationDescriptor;
import dev.pglane.source.values.DecodedRow;
import dev.pglane.wire.Lsn;
import dev.pglane.wire.SourceOffset;
import dev.pglane.wire.TopicNames;
import dev.pglane.wire.TransactionKey;
import dev.pglane.wire.envelope.ChangeEnvelope;
import dev.pglane.wire.envelope.ChangeEvent;
import dev.pglane.wire.envelope.EnvelopeSchemas;
import dev.pglane.wire.envelope.Op;
import dev.pglane.wire.envelope.RowImage;
import dev.pglane.wire.envelope.SourceInfo;
import dev.pglane.wire.envelope.Timestamps;
import dev.pglane.wire.marker.Marker;
import dev.pglane.wire.marker.MarkerCodec;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.apache.kafka.connect.data.Schema;
import org.apache.kafka.connect.data.SchemaAndValue;
import org.apache.kafka.connect.data.Struct;
import org.apache.kafka.connect.errors.ConnectException;
import org.apache.kafka.connect.source.SourceRecord;

/**
 * Turns stream items into {@link SourceRecord}s: the wire envelope for changes, truncates and logical
 * decoding messages, the marker struct for markers, as Connect data or already written as bytes ({@link
 * RecordEncoding}). Stateless and thread-safe, so all lanes share one.
 */
public final class RecordFactory implements BatchDecoder {
    private final String version;
    private final String topicPrefix;
    private final String database;
    private final TopicNames topics;
    private final Schema messageEnvelope;
    private final Map<String, String> partition;
    private final RecordEncoding encoding;

    /**
     * @param version the connector version for {@code source.version}
     * @param database the source database for {@code source.db}
     */
    public RecordFactory(
            String version, String database, TopicNames topics, EnvelopeSchemas envelopes, RecordEncoding encoding) {
        this.version = version;
        this.topicPrefix = topics.prefix();
        this.database = database;
        this.topics = topics;
        this.messageEnvelope = envelopes.forMessages(topicPrefix);
        this.partition = SourceOffset.partition(topicPrefix);
        this.encoding = encoding;
    }

    /** One processing time for the whole batch: reading the clock per record costs more than it tells. */
    @Override
    public List<SourceRecord> decode(List<StreamItem> batch) {
        Timestamps processed = Timestamps.ofInstant(Instant.now());
        List<SourceRecord> records = new ArrayList<>(batch.size());
        for (StreamItem item : batch) {
            records.add(toRecord(item, processed));
        }
        return records;
    }

    /**
     * The record of one item.
     *
     * @throws ConnectException naming the table, xid and LSN (and, through the cause, the column) when a
     *     value cannot be decoded
     */
    public TrackedRecord toRecord(StreamItem item, Timestamps processed) {
        if (item instanceof StreamItem.Change change) {
            return change(change, processed);
        }
        if (item instanceof StreamItem.Truncate truncate) {
            return truncate(truncate, processed);
        }
        if (item instanceof StreamItem.Message message) {
            return message(message, processed);
        }
        return marker((StreamItem.MarkerItem) item);
    }

    private TrackedRecord change(StreamItem.Change item, Timestamps processed) {
        RelationDescriptor relation = item.relation();
        ChangeStamp stamp = item.stamp();
        try {
            DecodedRow before = decode(relation, item, RowImage.BEFORE);
            DecodedRow after = decode(relation, item, RowImage.AFTER);
            ChangeEvent event = new ChangeEvent(
                    item.op(),
                    before == null ? null : before.row(),
                    after == null ? null : after.row(),
                    source(relation.schema(), relation.table(), stamp, item.op() == Op.READ),
                    stamp.transaction(),
                    processed,
                    after == null ? List.of() : after.unchangedToast(),
                    textValues(before, after),
                    null,
                    null,
                    item.pendingSnapshot());
            return envelope(relation.topic(), relation.envelopeSchema(), event, stamp, item.offset());
        } catch (RuntimeException e) {
            throw new ConnectException(
                    "Cannot decode a change of table " + relation.schema() + "." + relation.table() + " (xid "
                            + stamp.xid() + ", LSN " + stamp.lsn() + "): " + e.getMessage(),
                    e);
        }
    }

    private static DecodedRow decode(RelationDescriptor relation, StreamItem.Change item, RowImage image) {
        TupleData tuple = image == RowImage.BEFORE ? item.oldTuple() : item.newTuple();
        return tuple == null ? null : relation.rowDecoder().decode(tuple, image);
    }

    /** The decoder already keys text values by image ({@code before.x}, {@code after.x}), so they merge. */
    private static Map<String, String> textValues(DecodedRow before, DecodedRow after) {
        boolean noBefore = before == null || before.textValues().isEmpty();
        boolean noAfter = after == null || after.textValues().isEmpty();
        if (noBefore && noAfter) {
            return Map.of();
        }
        Map<String, String> merged = new HashMap<>();
        if (!noBefore) {
            merged.putAll(before.textValues());
        }
        if (!noAfter) {
            merged.putAll(after.textValues());
        }
        return merged;
    }

    private TrackedRecord truncate(StreamItem.Truncate item, Timestamps processed) {
        RelationDescriptor relation = item.relation();
        ChangeStamp stamp = item.stamp();
        ChangeEvent event = ChangeEvent.builder(
                        Op.TRUNCATE, source(relation.schema(), relation.table(), stamp), stamp.transaction())
                .processingTime(processed)
                .truncate(item.options())
                .build();
        return envelope(relation.topic(), relation.envelopeSchema(), event, stamp, item.offset());
    }

    private TrackedRecord message(StreamItem.Message item, Timestamps processed) {
        ChangeStamp stamp = item.stamp();
        ChangeEvent event = ChangeEvent.builder(Op.MESSAGE, source("", "", stamp), stamp.transaction())
                .processingTime(processed)
                .message(item.message())
                .build();
        return envelope(topics.messagesTopic(), messageEnvelope, event, stamp, item.offset());
    }

    private TrackedRecord envelope(
            String topic, Schema envelopeSchema, ChangeEvent event, ChangeStamp stamp, SourceOffset offset) {
        return record(
                offset,
                topic,
                stamp.xid(),
                envelopeSchema,
                ChangeEnvelope.toStruct(event, envelopeSchema),
                Math.floorDiv(stamp.timeMicros(), 1000L),
                null);
    }

    private TrackedRecord record(
            SourceOffset offset,
            String topic,
            long xid,
            Schema valueSchema,
            Struct value,
            long timestamp,
            Lsn confirm) {
        SchemaAndValue key = encoding.encode(topic, TransactionKey.SCHEMA, TransactionKey.of(xid), true);
        SchemaAndValue encoded = encoding.encode(topic, valueSchema, value, false);
        return new TrackedRecord(
                partition,
                offset.toMap(),
                topic,
                key.schema(),
                key.value(),
                encoded.schema(),
                encoded.value(),
                timestamp,
                confirm);
    }

    private SourceInfo source(String schema, String table, ChangeStamp stamp) {
        return source(schema, table, stamp, false);
    }

    /** @param snapshotRow the record is a snapshot row: Debezium's {@code source.snapshot} is then {@code "true"} */
    private SourceInfo source(String schema, String table, ChangeStamp stamp, boolean snapshotRow) {
        return new SourceInfo(
                version,
                topicPrefix,
                database,
                schema,
                table,
                Timestamps.ofMicros(stamp.timeMicros()),
                snapshotRow ? "true" : null,
                SourceInfo.sequenceOf(stamp.lastCommitLsn(), stamp.lsn()),
                stamp.xid(),
                stamp.lsn(),
                null);
    }

    private TrackedRecord marker(StreamItem.MarkerItem item) {
        Marker marker = item.marker();
        return record(
                item.offset(),
                topics.transactionsTopic(),
                marker.keyXid(),
                MarkerCodec.SCHEMA,
                MarkerCodec.toStruct(marker),
                marker.tsMs(),
                confirmLsn(marker));
    }

    /** END and HEARTBEAT records are the only ones whose acknowledgement lets the slot move. */
    private static Lsn confirmLsn(Marker marker) {
        if (marker instanceof Marker.End end) {
            return end.endLsn();
        }
        if (marker instanceof Marker.Heartbeat heartbeat) {
            return heartbeat.lsn();
        }
        return null;
    }
}
