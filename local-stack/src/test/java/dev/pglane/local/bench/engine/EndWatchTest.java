package dev.pglane.local.bench.engine;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.pglane.wire.Lsn;
import dev.pglane.wire.marker.DataCollectionCount;
import dev.pglane.wire.marker.Marker;
import dev.pglane.wire.marker.MarkerCodec;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.connect.data.Schema;
import org.apache.kafka.connect.data.SchemaBuilder;
import org.apache.kafka.connect.data.Struct;
import org.apache.kafka.connect.source.SourceRecord;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

@Timeout(value = 10, unit = TimeUnit.SECONDS)
class EndWatchTest {
    private static final Schema SOURCE = SchemaBuilder.struct()
            .field("table", Schema.STRING_SCHEMA)
            .field("txId", Schema.OPTIONAL_INT64_SCHEMA)
            .build();
    private static final Schema ENVELOPE = SchemaBuilder.struct()
            .field("op", Schema.STRING_SCHEMA)
            .field("source", SOURCE)
            .build();

    private static SourceRecord record(String topic, Schema schema, Object value) {
        return new SourceRecord(Map.of(), Map.of(), topic, schema, value);
    }

    private static SourceRecord end(long xid, long events) {
        List<DataCollectionCount> counts =
                events == 0 ? List.of() : List.of(new DataCollectionCount("public.t", events, "p.public.t"));
        Marker.End end = new Marker.End(0, xid, Lsn.valueOf(100), Lsn.valueOf(120), 1L, events, counts);
        return record("p.transactions", MarkerCodec.SCHEMA, MarkerCodec.toStruct(end));
    }

    private static SourceRecord change(String op, String table, long txId) {
        Struct source = new Struct(SOURCE).put("table", table).put("txId", txId);
        return record(
                "dbz.public." + table,
                ENVELOPE,
                new Struct(ENVELOPE).put("op", op).put("source", source));
    }

    @Test
    void pglaneCountsEndMarkersUntilTheFence() {
        EndWatch watch = EndWatch.of("pglane", 9);
        watch.accept(record("p.public.t", Schema.STRING_SCHEMA, "a change, not a marker"));
        watch.accept(end(5, 4));
        watch.accept(end(6, 0)); // a transaction with no published change
        watch.accept(end(7, 3));
        assertFalse(watch.done());

        watch.accept(end(9, 1));

        assertTrue(watch.done());
        assertEquals(2, watch.transactions());
        assertEquals(7, watch.changes(), "the fence's own change is not the backlog's");
    }

    @Test
    void aSnapshotWatchCountsReadsUntilTheSourcesRows() {
        EndWatch watch = new SnapshotReadWatch(3);
        watch.accept(change("r", "pgbench_accounts", 1));
        watch.accept(change("c", "pgbench_history", 2)); // a change, not an existing row
        watch.accept(record("dbz.public.pgbench_history", null, null)); // a tombstone
        watch.accept(change("r", "pgbench_branches", 1));
        assertFalse(watch.done());

        watch.accept(change("r", "snapshot_wide", 1));

        assertTrue(watch.done());
        assertEquals(3, watch.changes());
    }

    @Test
    void debeziumCountsChangesAndTransactionsByTxIdUntilTheFenceInsert() {
        EndWatch watch = EndWatch.of("debezium", 0);
        watch.accept(change("u", "pgbench_accounts", 10));
        watch.accept(change("u", "pgbench_tellers", 10));
        watch.accept(change("c", "pgbench_history", 10));
        watch.accept(record("dbz.public.pgbench_history", null, null)); // a tombstone
        watch.accept(change("r", "pgbench_accounts", 11)); // a snapshot read is no change
        watch.accept(change("d", "pgbench_accounts", 12));
        assertFalse(watch.done());

        watch.accept(change("c", "fence", 13));

        assertTrue(watch.done());
        assertEquals(2, watch.transactions());
        assertEquals(4, watch.changes());
    }

    @Test
    void anUnknownConnectorHasNoWatch() {
        assertThrows(IllegalArgumentException.class, () -> EndWatch.of("other", 1));
    }
}
