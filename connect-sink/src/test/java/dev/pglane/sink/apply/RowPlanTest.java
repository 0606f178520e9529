package dev.pglane.sink.apply;

import static dev.pglane.sink.apply.SourceTable.column;
import static dev.pglane.sink.apply.SourceTable.key;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.pglane.sink.assemble.ChangeRecord;
import dev.pglane.sink.target.TableName;
import dev.pglane.sink.target.TargetColumn;
import dev.pglane.sink.target.TargetTable;
import dev.pglane.wire.Lsn;
import dev.pglane.wire.types.PgType;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.function.Function;
import org.apache.kafka.connect.errors.ConnectException;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/** The SQL a plan makes for each operation, policy and kind of target key. */
@Timeout(value = 30, unit = TimeUnit.SECONDS)
class RowPlanTest {
    private static final SourceTable SOURCE = SourceTable.of(
            "src", "Items", key("id", PgType.INT4), column("name", PgType.TEXT), column("qty", PgType.INT4));

    private static final TargetTable KEYED = new TargetTable(
            new TableName("dst", "Items"),
            List.of(
                    new TargetColumn("id", "integer", false),
                    new TargetColumn("name", "text", false),
                    new TargetColumn("qty", "integer", false),
                    new TargetColumn("total", "integer", true)),
            List.of("id"),
            List.of(),
            List.of());

    private static final TargetTable KEYLESS = new TargetTable(
            new TableName("dst", "Items"),
            List.of(
                    new TargetColumn("id", "integer", false),
                    new TargetColumn("name", "text", false),
                    new TargetColumn("qty", "integer", false)),
            List.of(),
            List.of(),
            List.of());

    private static RowPlan plan(
            TargetTable target, ConflictPolicy policy, Function<TestTransaction, TestTransaction> change) {
        ChangeRecord record =
                change.apply(new TestTransaction(1, Lsn.parse("0/100"))).first();
        return RowPlan.of(target, record, SOURCE.rowSchema(), new RowPlan.Settings(policy, 1000));
    }

    private static RowPlan insert(TargetTable target, ConflictPolicy policy) {
        return plan(target, policy, tx -> tx.insert(SOURCE, SOURCE.row(1, "a", 2)));
    }

    @Test
    void insertIsOneMultiRowStatementWithQuotedNames() {
        RowPlan plan = insert(KEYED, ConflictPolicy.ERROR);
        assertEquals(
                "INSERT INTO \"dst\".\"Items\" (\"id\", \"name\", \"qty\") VALUES (?, ?, ?), (?, ?, ?)",
                plan.insert(2));
        assertEquals(1000, plan.maxRows);
        assertFalse(plan.returnsInserted);
    }

    @Test
    void skipDoesNothingOnConflictRowByRowAndUpsertUpdatesTheNonKeyColumns() {
        assertEquals(
                "INSERT INTO \"dst\".\"Items\" (\"id\", \"name\", \"qty\") VALUES (?, ?, ?) ON CONFLICT DO NOTHING",
                insert(KEYED, ConflictPolicy.SKIP).insert(1));
        RowPlan upsert = insert(KEYED, ConflictPolicy.UPSERT);
        assertEquals(
                "INSERT INTO \"dst\".\"Items\" (\"id\", \"name\", \"qty\") VALUES (?, ?, ?) ON CONFLICT (\"id\") DO"
                        + " UPDATE SET \"name\" = EXCLUDED.\"name\", \"qty\" = EXCLUDED.\"qty\" RETURNING xmax = 0",
                upsert.insert(1));
        assertTrue(upsert.returnsInserted);
        assertEquals(
                "INSERT INTO \"dst\".\"Items\" (\"id\", \"name\", \"qty\") VALUES (?, ?, ?)",
                insert(KEYLESS, ConflictPolicy.UPSERT).insert(1),
                "a table without a key cannot conflict on one");
    }

    @ParameterizedTest
    @EnumSource(ConflictPolicy.class)
    void snapshotRowsUpsertInMultiRowStatementsWithoutReportingBackWhateverThePolicy(ConflictPolicy policy) {
        RowPlan plan = plan(KEYED, policy, tx -> tx.read(SOURCE, SOURCE.row(1, "a", 2)));
        assertEquals(
                "INSERT INTO \"dst\".\"Items\" (\"id\", \"name\", \"qty\") VALUES (?, ?, ?), (?, ?, ?) ON CONFLICT"
                        + " (\"id\") DO UPDATE SET \"name\" = EXCLUDED.\"name\", \"qty\" = EXCLUDED.\"qty\"",
                plan.insert(2));
        assertTrue(plan.overwrites);
        assertFalse(plan.returnsInserted, "overwriting a row is what a chunk is for, not a conflict to report");
        assertEquals(1000, plan.maxRows);
        assertEquals(
                "INSERT INTO \"dst\".\"Items\" (\"id\", \"name\", \"qty\") VALUES (?, ?, ?)",
                plan(KEYLESS, policy, tx -> tx.read(SOURCE, SOURCE.row(1, "a", 2)))
                        .insert(1),
                "a table without a key takes a plain insert");
    }

    @Test
    void changesOfATableWhoseSnapshotIsPendingUpsertUnderErrorAndDoNotShareStatementsWithOthers() {
        RowPlan insert =
                plan(KEYED, ConflictPolicy.ERROR, tx -> tx.pendingSnapshot().insert(SOURCE, SOURCE.row(1, "a", 2)));
        assertEquals(insert(KEYED, ConflictPolicy.UPSERT).insert(1), insert.insert(1));
        assertTrue(insert.returnsInserted, "an overwritten row is counted as a pending miss");
        assertFalse(insert.sameStatement(insert(KEYED, ConflictPolicy.ERROR)));

        RowPlan update = plan(
                KEYED, ConflictPolicy.ERROR, tx -> tx.pendingSnapshot().update(SOURCE, null, SOURCE.row(1, "a", 3)));
        RowPlan unflagged = plan(KEYED, ConflictPolicy.ERROR, tx -> tx.update(SOURCE, null, SOURCE.row(1, "a", 3)));
        assertEquals(unflagged.statement, update.statement);
        assertEquals(
                plan(KEYED, ConflictPolicy.UPSERT, tx -> tx.update(SOURCE, null, SOURCE.row(1, "a", 3))).upsertRow,
                update.upsertRow);
        assertNull(unflagged.upsertRow);
        assertFalse(
                update.sameStatement(unflagged), "a batch has one plan, and only one of them inserts a missing row");
    }

    @Test
    void updateSetsTheSentColumnsButNotUnchangedToastByKey() {
        RowPlan plan =
                plan(KEYED, ConflictPolicy.UPSERT, tx -> tx.update(SOURCE, null, SOURCE.row(1, null, 3), "name"));
        assertEquals(
                "UPDATE \"dst\".\"Items\" SET \"id\" = ?, \"qty\" = ? WHERE \"id\" OPERATOR(pg_catalog.=) ?",
                plan.statement);
        assertNull(plan.upsertRow, "a new row cannot keep an unchanged TOAST value");
        assertEquals(
                "INSERT INTO \"dst\".\"Items\" (\"id\", \"name\", \"qty\") VALUES (?, ?, ?) ON CONFLICT (\"id\") DO"
                        + " UPDATE SET \"name\" = EXCLUDED.\"name\", \"qty\" = EXCLUDED.\"qty\" RETURNING xmax = 0",
                plan(KEYED, ConflictPolicy.UPSERT, tx -> tx.update(SOURCE, null, SOURCE.row(1, "a", 3))).upsertRow);
    }

    @Test
    void withoutATargetKeyOneRowMatchingTheIdentityColumnsChanges() {
        RowPlan plan = plan(KEYLESS, ConflictPolicy.ERROR, tx -> tx.delete(SOURCE, SOURCE.row(1, null, null)));
        assertEquals(
                "DELETE FROM \"dst\".\"Items\" WHERE (tableoid, ctid) = (SELECT tableoid, ctid FROM \"dst\".\"Items\""
                        + " WHERE"
                        + " \"id\"::text IS NOT DISTINCT FROM CAST(? AS integer)::text LIMIT 1)",
                plan.statement);
    }

    @Test
    void insertRowsStayUnderTheBindParameterLimit() {
        SourceTable wide = SourceTable.of(
                "src",
                "wide",
                java.util.stream.IntStream.range(0, 100)
                        .mapToObj(i -> column("c" + i, PgType.INT4))
                        .toArray(dev.pglane.wire.types.Column[]::new));
        TargetTable target = new TargetTable(
                new TableName("dst", "wide"),
                wide.rowSchema().fields().stream()
                        .map(f -> new TargetColumn(f.name(), "integer", false))
                        .toList(),
                List.of(),
                List.of(),
                List.of());
        ChangeRecord record = new TestTransaction(1, Lsn.parse("0/100"))
                .insert(wide, wide.row())
                .first();
        assertEquals(
                655,
                RowPlan.of(target, record, wide.rowSchema(), new RowPlan.Settings(ConflictPolicy.ERROR, 1000)).maxRows);
    }

    @Test
    void anUpdateThatCannotFindItsRowIsRefused() {
        SourceTable noIdentity = SourceTable.of("src", "Items", column("id", PgType.INT4), column("name", PgType.TEXT));
        ChangeRecord record = new TestTransaction(1, Lsn.parse("0/100"))
                .delete(noIdentity, noIdentity.row(1, "a"))
                .first();
        ConnectException e = assertThrows(
                ConnectException.class,
                () -> RowPlan.of(
                        KEYLESS, record, noIdentity.rowSchema(), new RowPlan.Settings(ConflictPolicy.ERROR, 10)));
        assertTrue(e.getMessage().contains("dst.Items"), e.getMessage());
    }
}
