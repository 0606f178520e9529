package dev.pglane.local.bench.engine;

import org.apache.kafka.connect.data.Struct;
import org.apache.kafka.connect.source.SourceRecord;

/**
 * Debezium's initial snapshot: every event with {@code op = r} is one existing row; done once the expected rows came.
 * An initial snapshot has no transactions to count, and no fence: its end is its row count.
 */
final class SnapshotReadWatch extends EndWatch {
    private final long expectedRows;

    SnapshotReadWatch(long expectedRows) {
        this.expectedRows = expectedRows;
    }

    @Override
    void accept(SourceRecord record) {
        if (record.value() instanceof Struct value
                && value.schema().field("op") != null
                && "r".equals(value.getString("op"))) {
            changes++;
            fence = changes >= expectedRows;
        }
    }
}
