package dev.pglane.source.decode;

import dev.pglane.source.offset.TrackedRecord;
import dev.pglane.source.pgoutput.TupleData;
import dev.pglane.source.schema.RelationDescriptor;
import dev.pglane.source.values.DecodedRow;
import dev.pglane.wire.Lsn;
import dev.pglane.wire.RowKey;
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
import org.apache.kafka.connect.header.ConnectHeaders;
import org.apache.kafka.connect.source.SourceRecord;

/**
 * Turns stream items into {@link SourceRecord}s: the wire envelope for changes, truncates and logical
 * decoding messages, the marker struct for markers, as Connect data or already written as bytes ({@link
 * RecordEncoding}). Stateless and thread-safe, so all lanes share one.
 */
public final class RecordFactory implements BatchDecoder {
    /** The key of a record keyed by row whose table has no key columns. */
    private static final SchemaAndValue NO_KEY = new SchemaAndValue(null, null);

    private final String version;
    private final String topicPrefix;
    private final String database;
    private final TopicNames topics;
    private final Schema messageEnvelope;
    private final Map<String, String> partition;
    private final RecordEncoding encoding;
    private final RecordKeys keys;

    /**
     * @param version the connector version for {@code source.version}
     * @param database the source database for {@code source.db}
     */
    public RecordFactory(
            String version,
            String database,
            TopicNames topics,
            EnvelopeSchemas envelopes,
            RecordEncoding encoding,
            RecordKeys keys) {
        this.version = version;
        this.topicPrefix = topics.prefix();
        this.database = database;
        this.topics = topics;
        this.messageEnvelope = envelopes.forMessages(topicPrefix);
        this.partition = SourceOffset.partition(topicPrefix);
        this.encoding = encoding;
        this.keys = keys;
    }

    /** One processing time for the whole batch: reading the clock per record costs more than it tells. */
    @Override
    public List<SourceRecord> decode(List<StreamItem> batch) {
        Timestamps processed = Timestamps.ofInstant(Instant.now());
        List<SourceRecord> records = new ArrayList<>(batch.size());
        for (StreamItem item : batch) {
            records.addAll(toRecords(item, processed));
        }
        return records;
    }

    /**
     * The records of one item: one, but for changes keyed by row, where a tombstone may follow a delete and precedes
     * an update that changed the row's key.
     *
     * @throws ConnectException naming the table, xid and LSN (and, through the cause, the column) when a
     *     value cannot be decoded
     */
    public List<TrackedRecord> toRecords(StreamItem item, Timestamps processed) {
        if (item instanceof StreamItem.Change change) {
            return change(change, processed);
        }
        if (item instanceof StreamItem.Truncate truncate) {
            return List.of(truncate(truncate, processed));
        }
        if (item instanceof StreamItem.Message message) {
            return List.of(message(message, processed));
        }
        return List.of(marker((StreamItem.MarkerItem) item));
    }

    private List<TrackedRecord> change(StreamItem.Change item, Timestamps processed) {
        RelationDescriptor relation = item.relation();
        ChangeStamp stamp = item.stamp();
        ChangeEvent event;
        try {
            DecodedRow before = decode(relation, item, RowImage.BEFORE);
            DecodedRow after = decode(relation, item, RowImage.AFTER);
            event = new ChangeEvent(
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
        } catch (RuntimeException e) {
            throw new ConnectException(
                    "Cannot decode a change of table " + relation.schema() + "." + relation.table() + " (xid "
                            + stamp.xid() + ", LSN " + stamp.lsn() + "): " + e.getMessage(),
                    e);
        }
        if (!keys.byRow()) {
            return List.of(envelope(relation, event, stamp, item.offset(), transactionKey(stamp.xid()), null));
        }
        return rowKeyed(relation, event, stamp, item.offset());
    }

    /**
     * A change keyed by its row, its xid in a header. A delete is followed by a tombstone of its key when asked. An
     * update that moved the row to another key is preceded by a key move's delete of the old key (and its
     * tombstone), as Debezium writes a key change: consumers that keep one row per key drop the old key, while
     * pglane's sink skips it and applies the update.
     */
    private List<TrackedRecord> rowKeyed(
            RelationDescriptor relation, ChangeEvent event, ChangeStamp stamp, SourceOffset offset) {
        Schema keySchema = relation.keySchema();
        ConnectHeaders headers = xidHeader(stamp.xid());
        if (keySchema == null) {
            return List.of(envelope(relation, event, stamp, offset, NO_KEY, headers));
        }
        SchemaAndValue key = rowKey(keySchema, event.after() != null ? event.after() : event.before());
        TrackedRecord record = envelope(relation, event, stamp, offset, key, headers);
        if (event.op() == Op.DELETE) {
            return keys.tombstonesOnDelete() ? List.of(record, tombstone(record, key, headers)) : List.of(record);
        }
        if (event.op() != Op.UPDATE || event.before() == null) {
            return List.of(record);
        }
        SchemaAndValue oldKey = rowKey(keySchema, event.before());
        if (oldKey.value().equals(key.value())) {
            return List.of(record);
        }
        ChangeEvent moved = ChangeEvent.builder(Op.DELETE, event.source(), null)
                .before(event.before())
                .processingTime(event.processingTime())
                .build();
        TrackedRecord delete = envelope(relation, moved, stamp, offset, oldKey, headers);
        return keys.tombstonesOnDelete()
                ? List.of(delete, tombstone(record, oldKey, headers), record)
                : List.of(delete, record);
    }

    private static SchemaAndValue rowKey(Schema keySchema, Struct row) {
        return new SchemaAndValue(keySchema, RowKey.of(keySchema, row));
    }

    /** A null value under {@code key}, at the place of {@code change} in the stream. */
    private TrackedRecord tombstone(TrackedRecord change, SchemaAndValue key, ConnectHeaders headers) {
        SchemaAndValue encoded = encoding.encode(change.topic(), key.schema(), key.value(), true);
        return new TrackedRecord(
                change.sourcePartition(),
                change.sourceOffset(),
                change.topic(),
                encoded.schema(),
                encoded.value(),
                null,
                null,
                change.timestamp(),
                headers,
                null);
    }

    private static ConnectHeaders xidHeader(long xid) {
        ConnectHeaders headers = new ConnectHeaders();
        headers.addLong(RowKey.XID_HEADER, xid);
        return headers;
    }

    private static SchemaAndValue transactionKey(long xid) {
        return new SchemaAndValue(TransactionKey.SCHEMA, TransactionKey.of(xid));
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

    /** Keyed by row, a truncate has no key: it is about every row (Debezium's too has none). */
    private TrackedRecord truncate(StreamItem.Truncate item, Timestamps processed) {
        RelationDescriptor relation = item.relation();
        ChangeStamp stamp = item.stamp();
        ChangeEvent event = ChangeEvent.builder(
                        Op.TRUNCATE, source(relation.schema(), relation.table(), stamp), stamp.transaction())
                .processingTime(processed)
                .truncate(item.options())
                .build();
        return keys.byRow()
                ? envelope(relation, event, stamp, item.offset(), NO_KEY, xidHeader(stamp.xid()))
                : envelope(relation, event, stamp, item.offset(), transactionKey(stamp.xid()), null);
    }

    private TrackedRecord message(StreamItem.Message item, Timestamps processed) {
        ChangeStamp stamp = item.stamp();
        ChangeEvent event = ChangeEvent.builder(Op.MESSAGE, source("", "", stamp), stamp.transaction())
                .processingTime(processed)
                .message(item.message())
                .build();
        return envelope(
                topics.messagesTopic(),
                messageEnvelope,
                event,
                stamp,
                item.offset(),
                transactionKey(stamp.xid()),
                null);
    }

    private TrackedRecord envelope(
            RelationDescriptor relation,
            ChangeEvent event,
            ChangeStamp stamp,
            SourceOffset offset,
            SchemaAndValue key,
            ConnectHeaders headers) {
        return envelope(relation.topic(), relation.envelopeSchema(), event, stamp, offset, key, headers);
    }

    private TrackedRecord envelope(
            String topic,
            Schema envelopeSchema,
            ChangeEvent event,
            ChangeStamp stamp,
            SourceOffset offset,
            SchemaAndValue key,
            ConnectHeaders headers) {
        return record(
                offset,
                topic,
                key,
                new SchemaAndValue(envelopeSchema, ChangeEnvelope.toValue(event, envelopeSchema, encoding.structs())),
                Math.floorDiv(stamp.timeMicros(), 1000L),
                headers,
                null);
    }

    /** @param key and {@code value}: Connect data, which the record carries as {@link #encoding} writes it */
    private TrackedRecord record(
            SourceOffset offset,
            String topic,
            SchemaAndValue key,
            SchemaAndValue value,
            long timestamp,
            ConnectHeaders headers,
            Lsn confirm) {
        SchemaAndValue encodedKey = encoding.encode(topic, key.schema(), key.value(), true);
        SchemaAndValue encoded = encoding.encode(topic, value.schema(), value.value(), false);
        return new TrackedRecord(
                partition,
                offset.toMap(),
                topic,
                encodedKey.schema(),
                encodedKey.value(),
                encoded.schema(),
                encoded.value(),
                timestamp,
                headers,
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
                transactionKey(marker.keyXid()),
                new SchemaAndValue(MarkerCodec.SCHEMA, MarkerCodec.toValue(marker, encoding.structs())),
                marker.tsMs(),
                null,
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
