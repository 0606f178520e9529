package dev.pglane.local.bench.engine;

import org.apache.kafka.connect.data.Struct;
import org.apache.kafka.connect.source.SourceRecord;

/**
 * Debezium's change events, without transaction metadata (as in the reference figures): every event with an
 * {@code op} of c, u or d is a change; a new {@code source.txId} starts a transaction, since events come in commit
 * order, one transaction after the other; the insert into the {@code fence} table ends the backlog.
 */
final class DebeziumEventWatch extends EndWatch {
    private static final String FENCE_TABLE = "fence";

    private long lastTxId = -1;

    @Override
    void accept(SourceRecord record) {
        if (!(record.value() instanceof Struct value) || value.schema().field("op") == null) {
            return; // a tombstone, or not a change event
        }
        String op = value.getString("op");
        if (!"c".equals(op) && !"u".equals(op) && !"d".equals(op)) {
            return;
        }
        Struct source = value.getStruct("source");
        if (FENCE_TABLE.equals(source.getString("table"))) {
            fence = true;
            return;
        }
        long txId = source.getInt64("txId");
        if (txId != lastTxId) {
            transactions++;
            lastTxId = txId;
        }
        changes++;
    }
}
