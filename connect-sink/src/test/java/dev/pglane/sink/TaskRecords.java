package dev.pglane.sink;

import dev.pglane.wire.Lsn;
import dev.pglane.wire.RowKey;
import dev.pglane.wire.TransactionKey;
import dev.pglane.wire.envelope.ChangeEnvelope;
import dev.pglane.wire.envelope.ChangeEvent;
import dev.pglane.wire.envelope.EnvelopeSchemas;
import dev.pglane.wire.envelope.Op;
import dev.pglane.wire.envelope.SourceInfo;
import dev.pglane.wire.envelope.Timestamps;
import dev.pglane.wire.envelope.TransactionInfo;
import dev.pglane.wire.marker.DataCollectionCount;
import dev.pglane.wire.marker.Marker;
import dev.pglane.wire.marker.MarkerCodec;
import dev.pglane.wire.marker.SnapshotChunk;
import dev.pglane.wire.types.Column;
import dev.pglane.wire.types.NumericMapping;
import dev.pglane.wire.types.PgColumnType;
import dev.pglane.wire.types.PgType;
import dev.pglane.wire.types.RowSchemas;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.record.TimestampType;
import org.apache.kafka.connect.data.Schema;
import org.apache.kafka.connect.data.Struct;
import org.apache.kafka.connect.header.ConnectHeaders;
import org.apache.kafka.connect.json.JsonConverter;
import org.apache.kafka.connect.sink.SinkRecord;

/**
 * Records of a pglane source with prefix {@code shop} that changes table {@code public.ledger (id int, note text)},
 * built by the wire contract's own encoders, each at the next offset of its partition, as a task's tests feed them.
 */
final class TaskRecords {
    static final String PREFIX = "shop";
    static final String MARKER_TOPIC = "shop.transactions";
    static final String LEDGER_TOPIC = "shop.public.ledger";
    static final TopicPartition MARKERS = new TopicPartition(MARKER_TOPIC, 0);
    static final TopicPartition LEDGER_0 = new TopicPartition(LEDGER_TOPIC, 0);
    static final TopicPartition LEDGER_1 = new TopicPartition(LEDGER_TOPIC, 1);
    static final Schema ROW = RowSchemas.build(
            PREFIX,
            "public",
            "ledger",
            List.of(
                    new Column("id", PgColumnType.of(PgType.INT4, -1), true),
                    new Column("note", PgColumnType.of(PgType.TEXT, -1), false)),
            NumericMapping.PRECISE);
    static final Schema ENVELOPE = new EnvelopeSchemas().forRow(ROW);

    private static final JsonConverter JSON_KEYS = json(true);
    private static final JsonConverter JSON_VALUES = json(false);

    final Map<TopicPartition, Long> nextOffset = new HashMap<>();

    SinkRecord marker(Marker marker) {
        long offset = nextOffset.merge(MARKERS, 1L, Long::sum) - 1;
        return new SinkRecord(
                MARKER_TOPIC,
                0,
                TransactionKey.SCHEMA,
                TransactionKey.of(marker.keyXid()),
                MarkerCodec.SCHEMA,
                MarkerCodec.toStruct(marker),
                offset);
    }

    SinkRecord change(TopicPartition partition, ChangeEvent event) {
        return change(partition, event, ENVELOPE);
    }

    /** A change whose envelope is {@code envelope}, for a row schema other than the ledger's. */
    SinkRecord change(TopicPartition partition, ChangeEvent event, Schema envelope) {
        long offset = nextOffset.merge(partition, 1L, Long::sum) - 1;
        return new SinkRecord(
                partition.topic(),
                partition.partition(),
                TransactionKey.SCHEMA,
                TransactionKey.of(event.source().txId()),
                envelope,
                ChangeEnvelope.toStruct(event, envelope),
                offset);
    }

    /** The ledger's row key, as a source with {@code record.key=row} writes it. */
    static final Schema ROW_KEY = RowKey.schema(PREFIX, "public", "ledger", ROW, List.of("id"));

    /**
     * {@code change} as a source with {@code record.key=row} writes it: keyed by its row's id, its xid in the
     * {@code pglane.xid} header.
     */
    static SinkRecord keyedByRow(SinkRecord change) {
        ChangeEvent event = ChangeEnvelope.fromStruct(change.value());
        Struct row = event.after() != null ? event.after() : event.before();
        return new SinkRecord(
                change.topic(),
                change.kafkaPartition(),
                ROW_KEY,
                RowKey.of(ROW_KEY, row),
                change.valueSchema(),
                change.value(),
                change.kafkaOffset(),
                null,
                TimestampType.NO_TIMESTAMP_TYPE,
                xidHeader(event.source().txId()));
    }

    /** A tombstone of ledger row {@code id} written by transaction {@code xid}. */
    SinkRecord tombstone(TopicPartition partition, int id, long xid) {
        long offset = nextOffset.merge(partition, 1L, Long::sum) - 1;
        return new SinkRecord(
                partition.topic(),
                partition.partition(),
                ROW_KEY,
                new Struct(ROW_KEY).put("id", id),
                null,
                null,
                offset,
                null,
                TimestampType.NO_TIMESTAMP_TYPE,
                xidHeader(xid));
    }

    private static ConnectHeaders xidHeader(long xid) {
        ConnectHeaders headers = new ConnectHeaders();
        headers.addLong(RowKey.XID_HEADER, xid);
        return headers;
    }

    /**
     * {@code record} as a sink with {@code payload.format=json} receives it: key and value as the bytes Kafka's own
     * JsonConverter writes (schemas on), through ByteArrayConverter.
     */
    static SinkRecord asJsonBytes(SinkRecord record) {
        return new SinkRecord(
                record.topic(),
                record.kafkaPartition(),
                null,
                JSON_KEYS.fromConnectData(record.topic(), record.keySchema(), record.key()),
                null,
                JSON_VALUES.fromConnectData(record.topic(), record.valueSchema(), record.value()),
                record.kafkaOffset(),
                null,
                TimestampType.NO_TIMESTAMP_TYPE,
                record.headers());
    }

    private static JsonConverter json(boolean isKey) {
        JsonConverter converter = new JsonConverter();
        converter.configure(Map.of("schemas.enable", "true"), isKey);
        return converter;
    }

    static Marker.Start start() {
        return new Marker.Start(7, 1_700_000_000_000L, Lsn.parse("0/100"));
    }

    static Marker.End end(long xid, String endLsn, long count) {
        return end(xid, endLsn, count, null);
    }

    /** The END of {@code count} ledger changes; with a {@code snapshot} block, of a snapshot chunk. */
    static Marker.End end(long xid, String endLsn, long count, SnapshotChunk snapshot) {
        Lsn end = Lsn.parse(endLsn);
        return new Marker.End(
                7,
                xid,
                Lsn.valueOf(end.asLong() - 0x30),
                end,
                1_700_000_000_000_000L + xid,
                count,
                List.of(new DataCollectionCount("public.ledger", count, LEDGER_TOPIC)),
                snapshot);
    }

    /** A snapshot row of a chunk. */
    static ChangeEvent read(long xid, long order, int id, String note) {
        SourceInfo s = source(xid);
        SourceInfo snapshot = new SourceInfo(
                s.version(), s.name(), s.db(), s.schema(), s.table(), s.time(), "true", null, xid, s.lsn(), null);
        return ChangeEvent.builder(Op.READ, snapshot, new TransactionInfo(xid, order, order, null, 7))
                .after(row(id, note))
                .build();
    }

    /** {@code event} flagged as a change of a table whose snapshot has not finished. */
    static ChangeEvent pendingSnapshot(ChangeEvent event) {
        return new ChangeEvent(
                event.op(),
                event.before(),
                event.after(),
                event.source(),
                event.transaction(),
                event.processingTime(),
                event.unchangedToast(),
                event.textValues(),
                event.truncate(),
                event.message(),
                true);
    }

    static ChangeEvent insert(long xid, long order, int id, String note) {
        return ChangeEvent.builder(Op.CREATE, source(xid), new TransactionInfo(xid, order, order, null, 7))
                .after(row(id, note))
                .build();
    }

    static ChangeEvent update(long xid, long order, int id, String note) {
        return ChangeEvent.builder(Op.UPDATE, source(xid), new TransactionInfo(xid, order, order, null, 7))
                .after(row(id, note))
                .build();
    }

    /** An update of xid that moves row {@code from} to key {@code to}. */
    static ChangeEvent move(long xid, long order, int from, int to, String note) {
        return ChangeEvent.builder(Op.UPDATE, source(xid), new TransactionInfo(xid, order, order, null, 7))
                .before(new Struct(ROW).put("id", from))
                .after(row(to, note))
                .build();
    }

    /** The key move's delete a source keying by row writes before {@link #move}: outside the transaction. */
    static ChangeEvent keyMoveDelete(long xid, int from) {
        return ChangeEvent.builder(Op.DELETE, source(xid), null)
                .before(new Struct(ROW).put("id", from))
                .build();
    }

    static ChangeEvent delete(long xid, long order, int id) {
        return ChangeEvent.builder(Op.DELETE, source(xid), new TransactionInfo(xid, order, order, null, 7))
                .before(new Struct(ROW).put("id", id))
                .build();
    }

    static Struct row(int id, String note) {
        return new Struct(ROW).put("id", id).put("note", note);
    }

    /** The source block of a ledger change; {@link #sourceNaming} lets a test claim another table. */
    static SourceInfo source(long xid) {
        return sourceNaming("public", "ledger", xid);
    }

    static SourceInfo sourceNaming(String schema, String table, long xid) {
        return new SourceInfo(
                "0.1.0",
                PREFIX,
                "inventory",
                schema,
                table,
                Timestamps.ofMicros(1_700_000_000_000_000L + xid),
                null,
                null,
                xid,
                Lsn.parse("0/800"),
                null);
    }
}
