package dev.pglane.source.offset;

import dev.pglane.connect.json.PglaneJsonConverter;
import dev.pglane.wire.RowKey;
import dev.pglane.wire.envelope.ChangeEnvelope;
import dev.pglane.wire.envelope.ChangeEvent;
import dev.pglane.wire.marker.Marker;
import dev.pglane.wire.marker.MarkerCodec;
import org.apache.kafka.connect.data.Struct;
import org.apache.kafka.connect.source.SourceRecord;

/**
 * Names a record the way an operator looks for it: the table and WAL position of a change, the transaction of a
 * marker. Only failure paths call it, so it may decode the whole value, reading it back from JSON if need be.
 */
final class RecordDescription {
    private RecordDescription() {}

    static String of(SourceRecord record) {
        String where = " (topic " + record.topic() + ")";
        if (record.value() == null) {
            long xid = RowKey.headerXid(record.headers());
            return "a tombstone" + (xid >= 0 ? " of xid " + xid : "") + where;
        }
        try {
            if (!(connectValue(record) instanceof Struct value)) {
                return "a record" + where;
            }
            if (MarkerCodec.SCHEMA_NAME.equals(value.schema().name())) {
                Marker marker = MarkerCodec.fromStruct(value);
                return marker.status() + " marker of xid " + marker.keyXid() + endOf(marker) + where;
            }
            ChangeEvent event = ChangeEnvelope.fromStruct(value);
            return "a change of " + event.source().schema() + "."
                    + event.source().table() + " at LSN " + event.source().lsn() + " (xid "
                    + event.source().txId() + ")" + where;
        } catch (RuntimeException e) {
            return "a record" + where;
        }
    }

    /** The record's value as Connect data: with {@code payload.format=json} the lanes already wrote it as JSON. */
    private static Object connectValue(SourceRecord record) {
        if (!(record.value() instanceof byte[] bytes)) {
            return record.value();
        }
        return PglaneJsonConverter.withSchemas(false)
                .toConnectData(record.topic(), bytes)
                .value();
    }

    private static String endOf(Marker marker) {
        return marker instanceof Marker.End end ? " ending at LSN " + end.endLsn() : "";
    }
}
