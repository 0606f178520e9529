package dev.pglane.sink.apply;

import static dev.pglane.sink.apply.SourceTable.column;
import static dev.pglane.sink.apply.SourceTable.key;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.pglane.sink.assemble.SourceTransaction;
import dev.pglane.wire.Lsn;
import dev.pglane.wire.types.PgType;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The conflict policies against a real PostgreSQL: error names xid, LSN, table, key and record; skip
 * counts and goes on; upsert converges on the source's rows.
 */
@Timeout(value = 2, unit = TimeUnit.MINUTES)
class ApplyConflictTest {
    @RegisterExtension
    static final TargetServer server = new TargetServer(TableProgressLog.CREATE_TABLE);

    /** {@code public.<name> (id int PRIMARY KEY, note text)} holding rows 1 and 2. */
    private static SourceTable table(String name, boolean pipeline) throws SQLException {
        return table(name + (pipeline ? "_pipelined" : "_separate"));
    }

    private static SourceTable table(String name) throws SQLException {
        server.execute(
                "CREATE TABLE public." + name + " (id int PRIMARY KEY, note text)",
                "INSERT INTO public." + name + " VALUES (1, 'target one'), (2, 'target two')");
        return SourceTable.of("public", name, key("id", PgType.INT4), column("note", PgType.TEXT));
    }

    /** Conflicts of every kind, around rows that apply cleanly. */
    private static SourceTransaction conflicting(SourceTable t, long xid) {
        return new TestTransaction(xid, Lsn.parse("1/2000"))
                .insert(t, t.row(3, "source three"))
                .insert(t, t.row(1, "source one"))
                .insert(t, t.row(4, "source four"))
                .update(t, null, t.row(5, "source five"))
                .update(t, null, t.row(6, null), "note")
                .update(t, null, t.row(2, "source two"))
                .delete(t, t.row(7, null))
                .build();
    }

    private static String messageOfFirstFailure(SourceTransaction tx, boolean pipeline) throws SQLException {
        try (ApplySession session =
                ApplySessionTest.open(server, ConflictPolicy.ERROR, 100, false, ConflictListener.NONE, pipeline)) {
            SQLException e = assertThrows(SQLException.class, () -> session.apply(tx, false));
            session.rollback();
            return e.getSQLState() + " " + e.getMessage();
        }
    }

    @ParameterizedTest(name = "pipeline {0}")
    @ValueSource(booleans = {true, false})
    void errorOnAnExistingKeyNamesTableKeyRecordXidAndLsnWithTheUniqueViolationState(boolean pipeline)
            throws SQLException {
        SourceTable t = table("err_insert", pipeline);
        String failure = messageOfFirstFailure(conflicting(t, 41), pipeline);
        assertTrue(failure.startsWith("23505 "), failure);
        String name = "public." + t.table();
        for (String part : List.of(
                name,
                "(id)=(1)",
                "src." + name + "-0@102",
                "xid 41",
                "1/2000",
                "conflict insert_exists under conflict.policy=error: the target already holds the row's key")) {
            assertTrue(failure.contains(part), part + " in " + failure);
        }
        assertEquals(List.of("1|target one", "2|target two"), server.rows("SELECT * FROM " + name + " ORDER BY id"));
    }

    @ParameterizedTest(name = "pipeline {0}")
    @ValueSource(booleans = {true, false})
    void errorOnAMissingRowNamesTableKeyRecordXidAndLsnWithNoDataFound(boolean pipeline) throws SQLException {
        SourceTable t = table("err_update", pipeline);
        String name = "public." + t.table();
        String update = messageOfFirstFailure(
                new TestTransaction(42, Lsn.parse("1/3000"))
                        .update(t, null, t.row(9, "nine"))
                        .build(),
                pipeline);
        assertTrue(update.startsWith("P0002 Conflict update_missing on " + name), update);
        for (String part : List.of("(id)=(9)", "src." + name + "-0@101", "xid 42", "1/3000")) {
            assertTrue(update.contains(part), part + " in " + update);
        }
        String delete = messageOfFirstFailure(
                new TestTransaction(43, Lsn.parse("1/4000"))
                        .delete(t, t.row(8, null))
                        .build(),
                pipeline);
        assertTrue(delete.startsWith("P0002 Conflict delete_missing on " + name), delete);
        assertTrue(delete.contains("(id)=(8)"), delete);
    }

    /**
     * A transaction that runs ahead of the one that inserted its row, which has applied but not committed, finds no
     * row (PostgreSQL shows it only once committed): under any policy that fails it with pglane's own state, so the
     * scheduler applies it again, instead of skipping the change or inserting the row a second time. A row the
     * predecessor updated is waited for, as usual.
     */
    @ParameterizedTest(name = "pipeline {0}")
    @ValueSource(booleans = {true, false})
    void aTransactionAheadOfAnUncommittedInsertFailsToBeAppliedAgainWhateverThePolicy(boolean pipeline)
            throws SQLException {
        SourceTable t = table("ahead", pipeline);
        String name = "public." + t.table();
        List<String> conflicts = new ArrayList<>();
        try (ApplySession predecessor = ApplySessionTest.open(
                        server, ConflictPolicy.UPSERT, 100, false, ConflictListener.NONE, pipeline);
                ApplySession ahead = ApplySessionTest.open(
                        server,
                        ConflictPolicy.UPSERT,
                        100,
                        false,
                        (kind, table) -> conflicts.add(kind + " " + table),
                        pipeline)) {
            predecessor.apply(
                    new TestTransaction(51, Lsn.parse("1/5000"))
                            .insert(t, t.row(3, "inserted"))
                            .build(),
                    false);
            SQLException e = assertThrows(
                    SQLException.class,
                    () -> ahead.apply(
                            new TestTransaction(52, Lsn.parse("1/5100"))
                                    .update(t, null, t.row(3, "updated"))
                                    .build(),
                            true));
            assertEquals("PL001", e.getSQLState(), e.getMessage());
            assertTrue(e.getMessage().contains("xid 52"), e.getMessage());
            assertTrue(e.getMessage().contains("runs again once that one committed"), e.getMessage());
            ahead.rollback();
            assertEquals(List.of(), conflicts, "no conflict is counted for it");
            predecessor.rollback();
        }
        assertEquals(List.of("1|target one", "2|target two"), server.rows("SELECT * FROM " + name + " ORDER BY id"));
    }

    @ParameterizedTest(name = "pipeline {0}")
    @ValueSource(booleans = {true, false})
    void skipCountsEachConflictOnceAndAppliesTheRest(boolean pipeline) throws SQLException {
        SourceTable t = table("skipped", pipeline);
        String name = "public." + t.table();
        List<String> conflicts = new ArrayList<>();
        try (ApplySession session = ApplySessionTest.open(
                server,
                ConflictPolicy.SKIP,
                100,
                false,
                (kind, table) -> conflicts.add(kind + " " + table),
                pipeline)) {
            ApplySessionTest.applyAndCommit(session, conflicting(t, 44));
        }
        assertEquals(
                List.of(
                        "insert_exists " + name,
                        "update_missing " + name,
                        "update_missing " + name,
                        "delete_missing " + name),
                conflicts);
        assertEquals(
                List.of("1|target one", "2|source two", "3|source three", "4|source four"),
                server.rows("SELECT * FROM " + name + " ORDER BY id"));
    }

    @ParameterizedTest(name = "pipeline {0}")
    @ValueSource(booleans = {true, false})
    void upsertOverwritesInsertsMissingRowsAndSkipsWhatItCannotWrite(boolean pipeline) throws SQLException {
        SourceTable t = table("upserted", pipeline);
        List<String> conflicts = new ArrayList<>();
        try (ApplySession session = ApplySessionTest.open(
                server, ConflictPolicy.UPSERT, 100, false, (kind, table) -> conflicts.add(kind), pipeline)) {
            ApplySessionTest.applyAndCommit(session, conflicting(t, 45));
        }
        assertEquals(List.of("insert_exists", "update_missing", "update_missing", "delete_missing"), conflicts);
        assertEquals(
                List.of("1|source one", "2|source two", "3|source three", "4|source four", "5|source five"),
                server.rows("SELECT * FROM public." + t.table() + " ORDER BY id"),
                "row 6 kept unchanged TOAST, which a new row cannot have; deleting the missing row 7 is a no-op");
    }
}
