package dev.pglane.local.bench.engine;

import dev.pglane.wire.marker.Marker;
import dev.pglane.wire.marker.MarkerCodec;
import org.apache.kafka.connect.data.Struct;
import org.apache.kafka.connect.source.SourceRecord;

/**
 * pglane's records, counted the way the Kafka run counts them: by the END markers, whose event counts say how many
 * change records each transaction had; the fence transaction's END ends the backlog.
 */
final class PglaneEndWatch extends EndWatch {
    private final long fenceXid;

    PglaneEndWatch(long fenceXid) {
        this.fenceXid = fenceXid;
    }

    @Override
    void accept(SourceRecord record) {
        if (!(record.value() instanceof Struct value)
                || !MarkerCodec.SCHEMA_NAME.equals(value.schema().name())) {
            return;
        }
        if (MarkerCodec.fromStruct(value) instanceof Marker.End end) {
            if (end.xid() == fenceXid) {
                fence = true;
            } else if (end.eventCount() > 0) {
                transactions++;
                changes += end.eventCount();
            }
        }
    }
}
