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
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * The pipelined apply against a real PostgreSQL: statements of several shapes in one round trip keep their
 * order, a transaction larger than one round trip is sent in parts, and a conflict after a part was sent
 * rolls everything back and applies the transaction statement by statement, counting the conflict once.
 */
@Timeout(value = 2, unit = TimeUnit.MINUTES)
class StatementPipelineTest {
    @RegisterExtension
    static final TargetServer server = new TargetServer(TableProgressLog.CREATE_TABLE);

    private static SourceTable table(String name) throws SQLException {
        server.execute("CREATE TABLE public." + name + " (id int PRIMARY KEY, v text)");
        return SourceTable.of("public", name, key("id", PgType.INT4), column("v", PgType.TEXT));
    }

    @Test
    void interleavedShapesApplyInSourceOrderInOneTry() throws SQLException {
        SourceTable a = table("pipe_a");
        SourceTable b = table("pipe_b");
        TestTransaction tx = new TestTransaction(51, Lsn.parse("2/1000"))
                .insert(a, a.row(1, "a1"))
                .insert(b, b.row(1, "b1"))
                .update(a, null, a.row(1, "a1 again"))
                .delete(b, b.row(1, null))
                .insert(b, b.row(1, "b1 again"))
                .update(a, null, a.row(1, "a1 last"));
        // far more statements than one round trip carries: alternating tables, so none share a batch
        for (int i = 2; i <= 400; i++) {
            tx.insert(a, a.row(i, "a" + i)).update(b, null, b.row(1, "b1 v" + i));
        }
        try (ApplySession session = ApplySessionTest.open(server, ConflictPolicy.ERROR, 100, false)) {
            ApplySessionTest.applyAndCommit(session, tx.build());
            assertEquals(0, session.redone(), "applied as a pipeline, in parts");
        }
        assertEquals(List.of("400"), server.rows("SELECT count(*) FROM public.pipe_a"));
        assertEquals(List.of("1|a1 last", "2|a2"), server.rows("SELECT * FROM public.pipe_a WHERE id < 3 ORDER BY id"));
        assertEquals(List.of("1|b1 v400"), server.rows("SELECT * FROM public.pipe_b"));
    }

    @Test
    void aConflictAfterAPartWasSentRollsItBackAndCountsTheConflictOnce() throws SQLException {
        SourceTable a = table("redo_a");
        SourceTable b = table("redo_b");
        server.execute("INSERT INTO public.redo_b VALUES (1000, 'already there')");
        TestTransaction tx = new TestTransaction(52, Lsn.parse("2/2000"));
        for (int i = 1; i <= 300; i++) { // alternating tables: 600 statements, so parts go out before the conflict
            tx.insert(a, a.row(i, "a" + i)).insert(b, b.row(i, "b" + i));
        }
        tx.insert(b, b.row(1000, "from the source"));
        List<String> conflicts = new ArrayList<>();
        try (ApplySession session = ApplySessionTest.open(
                server, ConflictPolicy.SKIP, 100, false, (kind, t) -> conflicts.add(kind + " " + t), true)) {
            ApplySessionTest.applyAndCommit(session, tx.build());
            assertEquals(1, session.redone(), "the pipeline gave up, and the transaction went statement by statement");
        }
        // had the parts sent before the conflict stayed, the redo would have found 600 rows taken
        assertEquals(List.of("insert_exists public.redo_b"), conflicts);
        assertEquals(List.of("300"), server.rows("SELECT count(*) FROM public.redo_a"));
        assertEquals(
                List.of("301", "already there"),
                server.rows("SELECT count(*)::text FROM public.redo_b UNION ALL"
                        + " SELECT v FROM public.redo_b WHERE id = 1000"));
    }

    @Test
    void anUpsertThatOverwritesNothingReturnsItsRowsAndNeedsNoRedo() throws SQLException {
        SourceTable a = table("upsert_a");
        TestTransaction tx = new TestTransaction(53, Lsn.parse("2/3000"))
                .insert(a, a.row(1, "one"))
                .insert(a, a.row(2, "two"))
                .update(a, null, a.row(1, "one changed"))
                .insert(a, a.row(3, "three"));
        List<String> conflicts = new ArrayList<>();
        try (ApplySession session = ApplySessionTest.open(
                server, ConflictPolicy.UPSERT, 100, false, (kind, t) -> conflicts.add(kind), true)) {
            ApplySessionTest.applyAndCommit(session, tx.build());
            assertEquals(0, session.redone(), "the upsert's RETURNING rows are all fresh inserts");
        }
        assertEquals(List.of(), conflicts);
        assertEquals(
                List.of("1|one changed", "2|two", "3|three"), server.rows("SELECT * FROM public.upsert_a ORDER BY id"));
    }
}
