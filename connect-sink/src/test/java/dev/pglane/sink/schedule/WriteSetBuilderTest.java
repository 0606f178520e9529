package dev.pglane.sink.schedule;

import static dev.pglane.sink.schedule.SampleTables.ACCOUNTS;
import static dev.pglane.sink.schedule.SampleTables.AUDIT;
import static dev.pglane.sink.schedule.SampleTables.ITEMS;
import static dev.pglane.sink.schedule.SampleTables.account;
import static dev.pglane.sink.schedule.SampleTables.audit;
import static dev.pglane.sink.schedule.SampleTables.item;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.pglane.sink.schedule.SampleTables.TxBuilder;
import dev.pglane.sink.target.TableMapping;
import dev.pglane.sink.target.TableName;
import dev.pglane.sink.target.TargetTable;
import dev.pglane.wire.envelope.ChangeEvent;
import dev.pglane.wire.envelope.LogicalMessage;
import dev.pglane.wire.envelope.Op;
import dev.pglane.wire.envelope.RowImage;
import dev.pglane.wire.marker.SnapshotChunk;
import dev.pglane.wire.types.Column;
import dev.pglane.wire.types.NumericMapping;
import dev.pglane.wire.types.PgColumnType;
import dev.pglane.wire.types.PgType;
import dev.pglane.wire.types.RowSchemas;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import org.apache.kafka.connect.data.Schema;
import org.apache.kafka.connect.data.Struct;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

@Timeout(10)
class WriteSetBuilderTest {
    private final WriteSetBuilder builder = SampleTables.writeSets();

    private static WriteKey key(TableName table, String column, Object value) {
        return new WriteKey(table, List.of(column), List.of(value));
    }

    @Test
    void insertWritesItsPrimaryAndUniqueKeys() {
        WriteSet writes = builder.of(
                new TxBuilder(10).insert("accounts", account(1, "a@x", 5)).build());
        assertFalse(writes.isBarrier());
        assertEquals(Set.of(key(ACCOUNTS, "id", 1), key(ACCOUNTS, "email", "a@x")), writes.keys());
        assertEquals(Set.of(ACCOUNTS), writes.tables());
        assertEquals(Set.of(), writes.tableWide());
    }

    @Test
    void primaryKeyChangeWritesOldAndNewKeys() {
        WriteSet writes = builder.of(new TxBuilder(10)
                .update("accounts", account(1, "a@x", 5), account(2, "b@x", 5))
                .build());
        assertEquals(
                Set.of(
                        key(ACCOUNTS, "id", 1),
                        key(ACCOUNTS, "id", 2),
                        key(ACCOUNTS, "email", "a@x"),
                        key(ACCOUNTS, "email", "b@x")),
                writes.keys());
    }

    @Test
    void nullUniqueKeyIsNoKeyAndAKeyOnlyOldRowStillCounts() {
        Struct keyOnly = new Struct(SampleTables.ACCOUNTS_ROW).put("id", 7);
        WriteSet writes = builder.of(new TxBuilder(10)
                .update("accounts", keyOnly, account(7, null, 1))
                .delete("accounts", new Struct(SampleTables.ACCOUNTS_ROW).put("id", 8))
                .build());
        assertEquals(Set.of(key(ACCOUNTS, "id", 7), key(ACCOUNTS, "id", 8)), writes.keys());
    }

    @Test
    void foreignKeyWritesTheParentKeyItReferences() {
        WriteSet child =
                builder.of(new TxBuilder(10).insert("items", item(3, 1L, 2)).build());
        WriteSet parent = builder.of(
                new TxBuilder(11).delete("accounts", account(1, null, 0)).build());
        assertEquals(Set.of(key(ITEMS, "id", 3), key(ACCOUNTS, "id", 1L)), child.keys());
        assertTrue(parent.keys().contains(key(ACCOUNTS, "id", 1)), "int4 parent key equals int8 reference");
        assertEquals(Set.of(ITEMS), child.tables());
    }

    @Test
    void updateOrDeleteOnATableWithoutKeyIsTableWide() {
        WriteSet inserts =
                builder.of(new TxBuilder(10).insert("audit", audit("n")).build());
        WriteSet updates = builder.of(
                new TxBuilder(11).update("audit", audit("n"), audit("m")).build());
        WriteSet deletes =
                builder.of(new TxBuilder(12).delete("audit", audit("n")).build());
        assertEquals(Set.of(), inserts.tableWide());
        assertEquals(Set.of(AUDIT), inserts.tables());
        assertEquals(Set.of(AUDIT), updates.tableWide());
        assertEquals(Set.of(AUDIT), deletes.tableWide());
        assertEquals(Set.of(), deletes.keys());
    }

    /** The class's timeout bounds the time too: copied by Set.copyOf, 80,000 keys took 20 s. */
    @Test
    void snapshotRowsWriteTheirKeysLikeInsertsOneSetForAWholeChunk() {
        TxBuilder chunk = new TxBuilder(10);
        for (int id = 1; id <= 50_000; id++) {
            chunk.read("accounts", account(id, id + "@x", 0));
        }
        chunk.read("audit", audit("n"));
        WriteSet writes = builder.of(chunk.build());
        assertFalse(writes.isBarrier());
        assertEquals(100_000, writes.keys().size(), "the primary and the unique key of every row");
        assertTrue(writes.keys().contains(key(ACCOUNTS, "id", 50_000)));
        assertTrue(writes.keys().contains(key(ACCOUNTS, "email", "1@x")));
        assertEquals(Set.of(ACCOUNTS, AUDIT), writes.tables());
        assertEquals(Set.of(), writes.tableWide(), "a snapshot row of a table without a key is an insert");
    }

    @Test
    void truncateIsABarrier() {
        WriteSet writes = builder.of(new TxBuilder(10)
                .insert("accounts", account(1, null, 5))
                .truncate("audit")
                .build());
        assertTrue(writes.isBarrier());
        assertTrue(writes.toString().contains("TRUNCATE of public.audit"), writes.toString());
    }

    @Test
    void spilledTransactionIsABarrier() {
        WriteSet writes = builder.of(new TxBuilder(10)
                .insert("accounts", account(1, null, 5))
                .spilled()
                .build());
        assertTrue(writes.isBarrier());
        assertTrue(writes.toString().contains("xid 10"), writes.toString());
    }

    @Test
    void aChunkThatEmptiesItsTableFirstIsABarrierAndNoOtherChunkIs() {
        SnapshotChunk.KeyRange fromStart = new SnapshotChunk.KeyRange(List.of("id"), null, List.of("100"));
        SnapshotChunk opening = new SnapshotChunk("7", "public.audit", 0, false, false, fromStart, true);
        SnapshotChunk later = new SnapshotChunk(
                "7", "public.audit", 1, true, true, new SnapshotChunk.KeyRange(List.of("id"), List.of("100"), null));
        WriteSet first = SampleTables.writeSets(true)
                .of(new TxBuilder(10)
                        .read("audit", audit("a"))
                        .snapshotChunk(opening)
                        .build());
        assertTrue(first.isBarrier(), "its TRUNCATE locks the table");
        assertTrue(first.toString().contains("empties its table"), first.toString());
        assertFalse(SampleTables.writeSets(true)
                .of(new TxBuilder(11)
                        .read("audit", audit("b"))
                        .snapshotChunk(later)
                        .build())
                .isBarrier());
        assertFalse(
                SampleTables.writeSets(false)
                        .of(new TxBuilder(12)
                                .read("audit", audit("c"))
                                .snapshotChunk(opening)
                                .build())
                        .isBarrier(),
                "with snapshot.target.prepare=none the first chunk empties nothing");
    }

    @Test
    void tableMissingFromTheTargetIsABarrier() {
        WriteSetBuilder noItems = new WriteSetBuilder(
                new TableMapping("${schema}.${table}"),
                name -> name.equals(ITEMS) ? Optional.empty() : Optional.of(SampleTables.TARGETS.get(name)),
                false);
        WriteSet writes =
                noItems.of(new TxBuilder(10).insert("items", item(1, 1, 1)).build());
        assertTrue(writes.isBarrier());
        assertTrue(writes.toString().contains("public.items"), writes.toString());
    }

    @Test
    void columnMissingFromTheTargetIsABarrier() {
        Schema wider = RowSchemas.build(
                "shop",
                "public",
                "audit",
                List.of(
                        new Column("note", PgColumnType.of(PgType.TEXT, -1), false),
                        new Column("added", PgColumnType.of(PgType.INT4, -1), false)),
                NumericMapping.PRECISE);
        WriteSet writes = builder.of(new TxBuilder(10)
                .insert("audit", new Struct(wider).put("note", "n").put("added", 1))
                .build());
        assertTrue(writes.isBarrier());
        assertTrue(writes.toString().contains("column added"), writes.toString());
    }

    @Test
    void targetTableFollowsTheMapping() {
        TableName archived = new TableName("archive", "accounts");
        TargetTable target = SampleTables.TARGETS.get(ACCOUNTS);
        WriteSetBuilder mapped = new WriteSetBuilder(
                new TableMapping("archive.${table}"),
                name -> name.equals(archived)
                        ? Optional.of(new TargetTable(
                                archived,
                                target.columns(),
                                target.primaryKey(),
                                target.uniqueKeys(),
                                target.foreignKeys()))
                        : Optional.empty(),
                false);
        WriteSet writes = mapped.of(
                new TxBuilder(10).insert("accounts", account(1, null, 1)).build());
        assertEquals(Set.of(key(archived, "id", 1)), writes.keys());
    }

    @Test
    void valueCarriedAsTextStillMakesAKey() {
        TxBuilder tx = new TxBuilder(10);
        ChangeEvent event = ChangeEvent.builder(Op.CREATE, tx.source("accounts"), tx.info())
                .after(new Struct(SampleTables.ACCOUNTS_ROW).put("id", 1))
                .textValue(RowImage.AFTER, "email", "odd")
                .build();
        WriteSet writes = builder.of(tx.event(event).build());
        assertTrue(
                writes.keys().contains(key(ACCOUNTS, "email", "odd")),
                writes.keys().toString());
    }

    @Test
    void logicalMessagesAreSkipped() {
        TxBuilder tx = new TxBuilder(10);
        ChangeEvent message = ChangeEvent.builder(Op.MESSAGE, tx.source(""), tx.info())
                .message(new LogicalMessage("p", new byte[] {1}, true))
                .build();
        WriteSet writes = builder.of(tx.event(message).build());
        assertFalse(writes.isBarrier());
        assertEquals(Set.of(), writes.tables());
    }

    /**
     * The builder keeps each row schema resolved against its target table across transactions; a table the catalog
     * read again after DDL (a new {@link TargetTable}) is resolved again: its new unique key and its new column count
     * from the next transaction on.
     */
    @Test
    void aTableTheCatalogReadAgainIsResolvedAgainForTheNextTransaction() {
        TargetTable before = new TargetTable(
                ACCOUNTS,
                SampleTables.TARGETS.get(ACCOUNTS).columns().subList(0, 2),
                List.of("id"),
                List.of(),
                List.of());
        TargetTable[] current = {before};
        WriteSetBuilder evolving = new WriteSetBuilder(
                new TableMapping("${schema}.${table}"),
                name -> name.equals(ACCOUNTS) ? Optional.of(current[0]) : Optional.empty(),
                false);
        WriteSet lacking = evolving.of(
                new TxBuilder(10).insert("accounts", account(1, "a@x", 5)).build());
        assertTrue(lacking.toString().contains("column balance"), lacking.toString());

        current[0] = SampleTables.TARGETS.get(ACCOUNTS);
        WriteSet writes = evolving.of(
                new TxBuilder(11).insert("accounts", account(2, "b@x", 5)).build());
        assertEquals(Set.of(key(ACCOUNTS, "id", 2), key(ACCOUNTS, "email", "b@x")), writes.keys());

        current[0] = before;
        assertTrue(evolving.of(new TxBuilder(12)
                        .insert("accounts", account(3, "c@x", 5))
                        .build())
                .isBarrier());
    }

    /** Source tables and row schemas come from records: the cache of them is bounded, and still right past it. */
    @Test
    void moreRowSchemasThanTheCacheHoldsStillMakeTheirKeys() {
        for (int i = 0; i < WriteSetBuilder.CACHE_MAX + 10; i++) {
            Schema schema = RowSchemas.build(
                    "shop",
                    "public",
                    "audit",
                    List.of(new Column("note", PgColumnType.of(PgType.TEXT, -1), false)),
                    NumericMapping.PRECISE);
            WriteSet writes = builder.of(new TxBuilder(10 + i)
                    .insert("accounts", account(i, "e" + i, 1))
                    .insert("audit", new Struct(schema).put("note", "n"))
                    .build());
            assertEquals(Set.of(key(ACCOUNTS, "id", i), key(ACCOUNTS, "email", "e" + i)), writes.keys());
            assertEquals(Set.of(ACCOUNTS, AUDIT), writes.tables());
        }
    }

    @Test
    void rejectsTableWideOutsideTables() {
        assertThrows(IllegalArgumentException.class, () -> WriteSet.of(Set.of(), Set.of(), Set.of(AUDIT)));
    }
}
