package dev.pglane.sink.apply;

import dev.pglane.sink.assemble.ChangeRecord;
import dev.pglane.sink.assemble.ListedChanges;
import dev.pglane.sink.assemble.SourceTransaction;
import dev.pglane.wire.Lsn;
import dev.pglane.wire.envelope.ChangeEvent;
import dev.pglane.wire.envelope.LogicalMessage;
import dev.pglane.wire.envelope.Op;
import dev.pglane.wire.envelope.SourceInfo;
import dev.pglane.wire.envelope.Timestamps;
import dev.pglane.wire.envelope.TransactionInfo;
import dev.pglane.wire.envelope.TruncateInfo;
import dev.pglane.wire.marker.DataCollectionCount;
import dev.pglane.wire.marker.Marker;
import dev.pglane.wire.marker.SnapshotChunk;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.UnaryOperator;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.connect.data.Struct;

/** Builds a source transaction's change records in order, as the assembler would release them. */
public final class TestTransaction {
    public static final long COMMIT_TS_US = 1_700_000_000_123_456L;

    private final long xid;
    private final Lsn endLsn;
    private final List<ChangeRecord> records = new ArrayList<>();
    private boolean pendingSnapshot;
    private SnapshotChunk snapshot;

    public TestTransaction(long xid, Lsn endLsn) {
        this.xid = xid;
        this.endLsn = endLsn;
    }

    public TestTransaction insert(SourceTable table, Struct after) {
        return change(table, Op.CREATE, b -> b.after(after));
    }

    /** A snapshot row ({@code op = r}); {@link #snapshotChunk} makes the transaction a chunk. */
    public TestTransaction read(SourceTable table, Struct after) {
        return change(table, Op.READ, b -> b.after(after));
    }

    /** The changes added from now on are flagged {@code pending_snapshot}. */
    public TestTransaction pendingSnapshot() {
        return pendingSnapshot(true);
    }

    /** Whether the changes added from now on are flagged {@code pending_snapshot}. */
    public TestTransaction pendingSnapshot(boolean pending) {
        pendingSnapshot = pending;
        return this;
    }

    /** The END carries {@code chunk}: this transaction is a snapshot chunk. */
    public TestTransaction snapshotChunk(SnapshotChunk chunk) {
        snapshot = chunk;
        return this;
    }

    public TestTransaction update(SourceTable table, Struct before, Struct after, String... unchangedToast) {
        return change(table, Op.UPDATE, b -> {
            b.before(before).after(after);
            for (String column : unchangedToast) {
                b.unchangedToast(column);
            }
            return b;
        });
    }

    public TestTransaction delete(SourceTable table, Struct before) {
        return change(table, Op.DELETE, b -> b.before(before));
    }

    public TestTransaction truncate(SourceTable table, boolean cascade, boolean restartIdentity) {
        return change(table, Op.TRUNCATE, b -> b.truncate(new TruncateInfo(cascade, restartIdentity)));
    }

    /** A record of {@code op} on {@code table}; {@code fields} sets its rows and extras. */
    public TestTransaction change(SourceTable table, Op op, UnaryOperator<ChangeEvent.Builder> fields) {
        long order = records.size() + 1;
        Lsn lsn = Lsn.valueOf(endLsn.asLong() - 1000 + order);
        SourceInfo source = new SourceInfo(
                "0.1.0",
                "src",
                "source",
                table.schema(),
                table.table(),
                Timestamps.ofMicros(COMMIT_TS_US),
                op == Op.READ ? "true" : null,
                null,
                xid,
                lsn,
                null);
        ChangeEvent event = fields.apply(
                        ChangeEvent.builder(op, source, new TransactionInfo(xid, order, order, null, 1))
                                .pendingSnapshot(pendingSnapshot))
                .build();
        String topic = "src." + table.schema() + "." + table.table();
        records.add(new ChangeRecord(new TopicPartition(topic, 0), 100 + order, event, 200));
        return this;
    }

    /** A transactional logical decoding message, counted as the END counts them. */
    public TestTransaction message(String prefix, byte[] content) {
        return change(
                SourceTable.of("src", DataCollectionCount.MESSAGES),
                Op.MESSAGE,
                b -> b.message(new LogicalMessage(prefix, content, true)));
    }

    /** The first record, for tests of one change. */
    public ChangeRecord first() {
        return records.get(0);
    }

    public SourceTransaction build() {
        Map<String, Long> perTable = new LinkedHashMap<>();
        for (ChangeRecord record : records) {
            SourceInfo source = record.event().source();
            String collection = record.event().op() == Op.MESSAGE
                    ? DataCollectionCount.MESSAGES
                    : source.schema() + "." + source.table();
            perTable.merge(collection, 1L, Long::sum);
        }
        List<DataCollectionCount> counts = perTable.entrySet().stream()
                .map(e -> new DataCollectionCount(e.getKey(), e.getValue(), "src." + e.getKey()))
                .toList();
        Marker.End end = new Marker.End(
                1, xid, Lsn.valueOf(endLsn.asLong() - 40), endLsn, COMMIT_TS_US, records.size(), counts, snapshot);
        return new SourceTransaction(end, 7, Map.of(), ListedChanges.of(records));
    }
}
