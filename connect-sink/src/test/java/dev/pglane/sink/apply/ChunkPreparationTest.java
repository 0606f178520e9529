package dev.pglane.sink.apply;

import static dev.pglane.sink.apply.SourceTable.column;
import static dev.pglane.sink.apply.SourceTable.key;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.pglane.connect.logging.LogCapture;
import dev.pglane.sink.assemble.SourceTransaction;
import dev.pglane.wire.Lsn;
import dev.pglane.wire.marker.SnapshotChunk;
import dev.pglane.wire.types.PgType;
import java.sql.SQLException;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * {@code snapshot.target.prepare=truncate} against a real PostgreSQL: the chunk that opens a read of a whole table
 * empties the target table first, whatever lies outside its key range, and then goes in by COPY; a table another one
 * references is emptied by DELETE and the referencing rows stay; no other chunk, and no chunk without the setting,
 * empties anything.
 */
@Timeout(value = 2, unit = TimeUnit.MINUTES)
class ChunkPreparationTest {
    @RegisterExtension
    static final TargetServer server = new TargetServer(TableProgressLog.CREATE_TABLE);

    private static final SnapshotChunk.KeyRange FIRST = new SnapshotChunk.KeyRange(List.of("id"), null, List.of("50"));

    /** {@code public.<name> (id int PRIMARY KEY, note text)} holding old rows 1, 2 and 99 on the target. */
    private static SourceTable table(String name) throws SQLException {
        server.execute(
                "CREATE TABLE public." + name + " (id int PRIMARY KEY, note text)",
                "INSERT INTO public." + name + " VALUES (1, 'old'), (2, 'old'), (99, 'old')");
        return SourceTable.of("public", name, key("id", PgType.INT4), column("note", PgType.TEXT));
    }

    private static SourceTransaction chunk(SourceTable t, long xid, SnapshotChunk snapshot) {
        return new TestTransaction(xid, Lsn.valueOf(0x3_0000_0000L + xid * 0x100))
                .read(t, t.row(1, "new"))
                .read(t, t.row(3, "new"))
                .snapshotChunk(snapshot)
                .build();
    }

    private static ApplySession open(boolean snapshotTruncate) throws SQLException {
        return ApplySessionTest.open(
                server, ConflictPolicy.ERROR, 100, false, ConflictListener.NONE, true, false, snapshotTruncate);
    }

    @Test
    void theChunkThatOpensTheTableEmptiesItThenGoesInByCopy() throws SQLException {
        SourceTable t = table("prepared");
        try (LogCapture log = LogCapture.start();
                ApplySession session = open(true)) {
            ApplySessionTest.applyAndCommit(
                    session, chunk(t, 70, new SnapshotChunk("9", "public.prepared", 0, false, false, FIRST, true)));
            assertEquals(1, session.copied(), "the emptied range takes the chunk by COPY");
            assertTrue(
                    log.lines().stream().anyMatch(l -> l.contains("emptied public.prepared (TRUNCATE)")),
                    log.lines()::toString);
        }
        assertEquals(
                List.of("1|new", "3|new"),
                server.rows("SELECT id, note FROM public.prepared ORDER BY id"),
                "row 99, outside the first chunk's range, is gone too: the later chunks bring what the source has");
    }

    @ParameterizedTest(name = "snapshot.target.prepare=truncate {0}")
    @ValueSource(booleans = {true, false})
    void noOtherChunkEmptiesTheTable(boolean snapshotTruncate) throws SQLException {
        SourceTable t = table("kept_" + snapshotTruncate);
        String name = "public." + t.table();
        SnapshotChunk opening = new SnapshotChunk("9", name, 0, false, false, FIRST, true);
        SnapshotChunk later = new SnapshotChunk(
                "9", name, 1, true, true, new SnapshotChunk.KeyRange(List.of("id"), List.of("50"), null));
        try (ApplySession session = open(snapshotTruncate)) {
            ApplySessionTest.applyAndCommit(
                    session,
                    new TestTransaction(71, Lsn.parse("3/7100"))
                            .read(t, t.row(99, "new"))
                            .snapshotChunk(later)
                            .build());
            if (!snapshotTruncate) {
                ApplySessionTest.applyAndCommit(session, chunk(t, 72, opening));
            }
        }
        List<String> expected = snapshotTruncate
                ? List.of("1|old", "2|old", "99|new")
                : List.of("1|new", "3|new", "99|new"); // the range's stray row 2 deleted, 99 outside the range kept
        assertEquals(expected, server.rows("SELECT id, note FROM " + name + " ORDER BY id"));
    }

    @Test
    void aTableAnotherReferencesIsEmptiedByDeleteAndTheReferencingRowsStay() throws SQLException {
        SourceTable t = table("parent");
        server.execute(
                "CREATE TABLE public.child (id int PRIMARY KEY, parent_id int REFERENCES public.parent)",
                "INSERT INTO public.child VALUES (10, 2), (11, 99)");
        try (LogCapture log = LogCapture.start();
                ApplySession session = open(true)) {
            ApplySessionTest.applyAndCommit(
                    session, chunk(t, 73, new SnapshotChunk("9", "public.parent", 0, false, false, FIRST, true)));
            assertTrue(
                    log.lines().stream()
                            .anyMatch(l -> l.contains("emptied public.parent (DELETE of 3 rows, as another table")),
                    log.lines()::toString);
        }
        assertEquals(List.of("1|new", "3|new"), server.rows("SELECT id, note FROM public.parent ORDER BY id"));
        assertEquals(
                List.of("10|2", "11|99"),
                server.rows("SELECT id, parent_id FROM public.child ORDER BY id"),
                "a table the snapshot does not read keeps its rows: never a cascade");
    }
}
