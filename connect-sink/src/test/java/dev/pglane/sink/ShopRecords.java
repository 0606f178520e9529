package dev.pglane.sink;

import dev.pglane.wire.Lsn;
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
import dev.pglane.wire.types.Column;
import dev.pglane.wire.types.NumericMapping;
import dev.pglane.wire.types.PgColumnType;
import dev.pglane.wire.types.PgType;
import dev.pglane.wire.types.RowSchemas;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.connect.data.Schema;
import org.apache.kafka.connect.data.Struct;
import org.apache.kafka.connect.sink.SinkRecord;

/**
 * Records of the source {@code shop} as Connect hands them to the sink, built by the wire contract's own
 * encoders: markers, and inserts into tables {@code public.<table> (id int PRIMARY KEY, note text)}, each
 * partition's offsets counted from 0.
 */
final class ShopRecords {
    static final String PREFIX = "shop";
    static final TopicPartition MARKERS = new TopicPartition("shop.transactions", 0);
    static final long GENERATION = 7;

    private final Map<TopicPartition, Long> nextOffset = new HashMap<>();
    private final Map<String, Schema> envelopes = new HashMap<>();
    private final Map<String, Schema> rows = new HashMap<>();

    static String topic(String table) {
        return PREFIX + ".public." + table;
    }

    static Marker.Start start() {
        return new Marker.Start(GENERATION, 1_700_000_000_000L, Lsn.parse("0/100"));
    }

    /** The END of {@code xid}, counting the inserts it made per table. */
    static Marker.End end(long xid, long endLsn, Map<String, Long> insertsPerTable) {
        List<DataCollectionCount> collections = new ArrayList<>();
        insertsPerTable.forEach(
                (table, count) -> collections.add(new DataCollectionCount("public." + table, count, topic(table))));
        long total =
                insertsPerTable.values().stream().mapToLong(Long::longValue).sum();
        return new Marker.End(
                GENERATION,
                xid,
                Lsn.valueOf(endLsn - 0x30),
                Lsn.valueOf(endLsn),
                1_700_000_000_000_000L + xid,
                total,
                collections);
    }

    SinkRecord marker(Marker marker) {
        return new SinkRecord(
                MARKERS.topic(),
                0,
                TransactionKey.SCHEMA,
                TransactionKey.of(marker.keyXid()),
                MarkerCodec.SCHEMA,
                MarkerCodec.toStruct(marker),
                offset(MARKERS));
    }

    /** The insert of row ({@code id}, {@code note}), change {@code order} of {@code xid}. */
    SinkRecord insert(TopicPartition partition, long xid, long order, int id, String note) {
        String table = partition.topic().substring((PREFIX + ".public.").length());
        Schema row = rows.computeIfAbsent(table, ShopRecords::rowSchema);
        Schema envelope = envelopes.computeIfAbsent(table, added -> new EnvelopeSchemas().forRow(row));
        ChangeEvent event = ChangeEvent.builder(
                        Op.CREATE, source(table, xid), new TransactionInfo(xid, order, order, null, GENERATION))
                .after(new Struct(row).put("id", id).put("note", note))
                .build();
        return new SinkRecord(
                partition.topic(),
                partition.partition(),
                TransactionKey.SCHEMA,
                TransactionKey.of(xid),
                envelope,
                ChangeEnvelope.toStruct(event, envelope),
                offset(partition));
    }

    private long offset(TopicPartition partition) {
        return nextOffset.merge(partition, 1L, Long::sum) - 1;
    }

    private static Schema rowSchema(String table) {
        return RowSchemas.build(
                PREFIX,
                "public",
                table,
                List.of(
                        new Column("id", PgColumnType.of(PgType.INT4, -1), true),
                        new Column("note", PgColumnType.of(PgType.TEXT, -1), false)),
                NumericMapping.PRECISE);
    }

    private static SourceInfo source(String table, long xid) {
        return new SourceInfo(
                "0.1.0",
                PREFIX,
                "inventory",
                "public",
                table,
                Timestamps.ofMicros(1_700_000_000_000_000L + xid),
                null,
                null,
                xid,
                Lsn.parse("0/800"),
                null);
    }
}
