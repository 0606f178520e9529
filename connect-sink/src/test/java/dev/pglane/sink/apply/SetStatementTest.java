package dev.pglane.sink.apply;

import static dev.pglane.sink.apply.SourceTable.column;
import static dev.pglane.sink.apply.SourceTable.key;
import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.pglane.wire.Lsn;
import dev.pglane.wire.types.PgType;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * The pipelined path's set statements against a real PostgreSQL: a table's updates and deletes that other tables'
 * changes interleave go as one statement per table, repeated keys folded into the last update, and the target then
 * holds what applying every change in the source's order gives; a row the set statement misses sends the
 * transaction statement by statement, where the conflict policy meets it.
 */
@Timeout(value = 2, unit = TimeUnit.MINUTES)
class SetStatementTest {
    @RegisterExtension
    static final TargetServer server = new TargetServer(TableProgressLog.CREATE_TABLE);

    private static SourceTable table(String name, int rows) throws SQLException {
        server.execute("CREATE TABLE public." + name + " (id int PRIMARY KEY, v text)");
        server.execute("INSERT INTO public." + name + " SELECT g, 'old' FROM generate_series(1, " + rows + ") g");
        return SourceTable.of("public", name, key("id", PgType.INT4), column("v", PgType.TEXT));
    }

    @Test
    void interleavedUpdatesGoAsOneStatementPerTableAndEndAsInTheSourcesOrder() throws SQLException {
        // pgbench's shape: 32 transactions, each updating an account, a teller and a branch and inserting history
        SourceTable accounts = table("set_accounts", 100);
        SourceTable branches = table("set_branches", 3);
        server.execute("CREATE TABLE public.set_history (id int PRIMARY KEY, v text)");
        SourceTable history = SourceTable.of("public", "set_history", key("id", PgType.INT4), column("v", PgType.TEXT));
        TestTransaction group = new TestTransaction(61, Lsn.parse("3/1000"));
        for (int i = 1; i <= 32; i++) {
            group.update(accounts, null, accounts.row(i * 3, "account " + i))
                    .update(branches, null, branches.row(i % 3 + 1, "branch after " + i))
                    .insert(history, history.row(i, "history " + i));
        }
        group.delete(accounts, accounts.row(99, null)).delete(accounts, accounts.row(100, null));
        try (ApplySession session = ApplySessionTest.open(server, ConflictPolicy.ERROR, 1000, false)) {
            ApplySessionTest.applyAndCommit(session, group.build());
            assertEquals(0, session.redone(), "every set statement changed exactly its rows");
            assertEquals(
                    4,
                    session.statementsPipelined(),
                    "an UPDATE of 32 accounts, one of 3 branches (29 repeats folded), an INSERT of 32 history rows"
                            + " and a DELETE of 2 accounts");
        }
        List<String> expectedAccounts = new ArrayList<>();
        for (int id = 1; id <= 98; id++) {
            expectedAccounts.add(id + "|" + (id % 3 == 0 && id <= 96 ? "account " + id / 3 : "old"));
        }
        assertEquals(expectedAccounts, server.rows("SELECT * FROM public.set_accounts ORDER BY id"));
        assertEquals(
                List.of("1|branch after 30", "2|branch after 31", "3|branch after 32"),
                server.rows("SELECT * FROM public.set_branches ORDER BY id"));
        assertEquals(List.of("32"), server.rows("SELECT count(*) FROM public.set_history"));
    }

    @Test
    void aRowTheSetStatementMissesIsMetByThePolicyStatementByStatement() throws SQLException {
        SourceTable items = table("set_missing", 10);
        server.execute("DELETE FROM public.set_missing WHERE id = 5");
        TestTransaction tx = new TestTransaction(62, Lsn.parse("3/2000"));
        IntStream.rangeClosed(1, 10).forEach(id -> tx.update(items, null, items.row(id, "new " + id)));
        List<String> conflicts = new ArrayList<>();
        try (ApplySession session = ApplySessionTest.open(
                server, ConflictPolicy.SKIP, 1000, false, (kind, t) -> conflicts.add(kind + " " + t), true)) {
            ApplySessionTest.applyAndCommit(session, tx.build());
            assertEquals(1, session.redone(), "the UPDATE of 10 rows changed 9: redone statement by statement");
        }
        assertEquals(List.of("update_missing public.set_missing"), conflicts);
        assertEquals(
                IntStream.rangeClosed(1, 10)
                        .filter(id -> id != 5)
                        .mapToObj(id -> id + "|new " + id)
                        .toList(),
                server.rows("SELECT * FROM public.set_missing ORDER BY id"));
    }

    @Test
    void anUpdateThatMovedItsRowIsNotFoldedIntoALaterUpdateOfItsOldKey() throws SQLException {
        SourceTable items = table("set_moved", 3);
        // the first update moves row 1 to key 10; the second names key 1 again, which no longer exists there
        TestTransaction tx = new TestTransaction(63, Lsn.parse("3/3000"))
                .update(items, items.row(1, null), items.row(10, "moved"))
                .update(items, null, items.row(1, "too late"));
        List<String> conflicts = new ArrayList<>();
        try (ApplySession session = ApplySessionTest.open(
                server, ConflictPolicy.SKIP, 1000, false, (kind, t) -> conflicts.add(kind + " " + t), true)) {
            ApplySessionTest.applyAndCommit(session, tx.build());
        }
        assertEquals(List.of("update_missing public.set_moved"), conflicts);
        assertEquals(List.of("2|old", "3|old", "10|moved"), server.rows("SELECT * FROM public.set_moved ORDER BY id"));
    }
}
