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
import java.nio.charset.StandardCharsets;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * Snapshot chunks into key ranges the target holds no row of go in by COPY, against a real PostgreSQL: they write
 * exactly what the upsert writes, values that COPY's text format must escape included; a range that holds rows, or
 * a key another session is inserting, takes the upsert's way.
 */
@Timeout(value = 2, unit = TimeUnit.MINUTES)
class ChunkCopyTest {
    @RegisterExtension
    static final TargetServer server = new TargetServer(TableProgressLog.CREATE_TABLE);

    private static final String[] NOTES = {
        "plain", "tab\there", "new\nline", "carriage\rreturn", "back\\slash", "\\N", null, "ünïcødé €", "", "end\\"
    };

    private static SourceTable table(String name) throws SQLException {
        server.execute("CREATE TABLE public." + name
                + " (id int PRIMARY KEY, note text, big bigint, flag boolean, ratio float8, raw bytea)");
        return SourceTable.of(
                "public",
                name,
                key("id", PgType.INT4),
                column("note", PgType.TEXT),
                column("big", PgType.INT8),
                column("flag", PgType.BOOL),
                column("ratio", PgType.FLOAT8),
                column("raw", PgType.BYTEA));
    }

    /** Rows 1..count of {@code t} as one chunk of the whole table. */
    private static SourceTransaction chunk(SourceTable t, long xid, int count) {
        TestTransaction tx = new TestTransaction(xid, Lsn.parse("3/" + Long.toHexString(xid * 16)));
        for (int id = 1; id <= count; id++) {
            String note = NOTES[id % NOTES.length];
            tx.read(t, t.row(id, note, id * 1_000_000_007L, id % 2 == 0, id / 3.0, bytes(note)));
        }
        return tx.snapshotChunk(new SnapshotChunk(
                        "s", "public." + t.table(), 1, true, false, SnapshotChunk.KeyRange.whole(List.of("id"))))
                .build();
    }

    private static byte[] bytes(String note) {
        return note == null ? null : ("\t\\" + note).getBytes(StandardCharsets.UTF_8);
    }

    @Test
    void aChunkIntoAnEmptyRangeGoesInByCopyAndWritesWhatTheUpsertWrites() throws SQLException {
        SourceTable copied = table("copied");
        SourceTable upserted = table("upserted");
        server.execute("INSERT INTO public.upserted (id, note) VALUES (1, 'target one')");
        try (LogCapture log = LogCapture.start();
                ApplySession session = ApplySessionTest.open(server, ConflictPolicy.ERROR, 1000, false)) {
            ApplySessionTest.applyAndCommit(session, chunk(copied, 70, 2500));
            assertEquals(1, session.copied(), "the empty table's chunk went in by COPY");
            ApplySessionTest.applyAndCommit(session, chunk(upserted, 71, 2500));
            assertEquals(1, session.copied(), "the chunk whose range holds a row went in as an upsert");
            assertEquals(List.of(), log.warnings());
        }
        String columns = "SELECT id, note, note IS NULL, big, flag, ratio, raw FROM public.";
        List<String> byCopy = server.rows(columns + "copied ORDER BY id");
        assertEquals(2500, byCopy.size());
        assertEquals(server.rows(columns + "upserted ORDER BY id"), byCopy);
        assertEquals(
                List.of("tab\there|1", "new\nline|2", "\\N|5", "|8", "end\\|9"),
                server.rows("SELECT note, id FROM public.copied WHERE id IN (1, 2, 5, 8, 9) ORDER BY id"),
                "COPY's escapes are undone, and the text \\N stays text");
        assertEquals(List.of("t"), server.rows("SELECT note IS NULL FROM public.copied WHERE id = 6"));
    }

    @Test
    void aChunkOfATableWithoutAKeyGoesInByCopyWhileTheTableIsEmpty() throws SQLException {
        server.execute("CREATE TABLE public.keyless (id int, note text)");
        SourceTable t = SourceTable.of("public", "keyless", column("id", PgType.INT4), column("note", PgType.TEXT));
        SourceTransaction first = new TestTransaction(72, Lsn.parse("3/9000"))
                .read(t, t.row(1, "one"))
                .read(t, t.row(1, "one"))
                .snapshotChunk(new SnapshotChunk(
                        "s", "public.keyless", 1, true, false, SnapshotChunk.KeyRange.whole(List.of())))
                .build();
        SourceTransaction again = new TestTransaction(73, Lsn.parse("3/9100"))
                .read(t, t.row(2, "two"))
                .snapshotChunk(new SnapshotChunk(
                        "t", "public.keyless", 1, true, false, SnapshotChunk.KeyRange.whole(List.of())))
                .build();
        try (ApplySession session = ApplySessionTest.open(server, ConflictPolicy.ERROR, 1000, false)) {
            ApplySessionTest.applyAndCommit(session, first);
            assertEquals(1, session.copied());
            ApplySessionTest.applyAndCommit(session, again);
            assertEquals(1, session.copied(), "a re-snapshot of a table that has rows replaces them instead");
        }
        assertEquals(List.of("2|two"), server.rows("SELECT * FROM public.keyless ORDER BY id"));
    }

    @Test
    void aChunkThatMeetsAKeyAnotherSessionIsInsertingFallsBackToTheUpsert() throws Exception {
        SourceTable t = table("contended");
        try (Connection other = server.connect();
                LogCapture log = LogCapture.start();
                ApplySession session = ApplySessionTest.open(server, ConflictPolicy.ERROR, 1000, false)) {
            other.setAutoCommit(false);
            try (Statement st = other.createStatement()) {
                st.execute("INSERT INTO public.contended (id, note) VALUES (3, 'earlier transaction')");
            }
            CompletableFuture<Void> applied = CompletableFuture.runAsync(() -> {
                try {
                    ApplySessionTest.applyAndCommit(session, chunk(t, 74, 100));
                } catch (SQLException e) {
                    throw new IllegalStateException(e);
                }
            });
            awaitBlockedOnALock();
            other.commit();
            applied.get(60, TimeUnit.SECONDS);
            assertEquals(0, session.copied());
            assertTrue(
                    log.lines().stream().anyMatch(l -> l.contains("applying it as an upsert instead of COPY")),
                    log.lines()::toString);
        }
        assertEquals(
                List.of("100|carriage\rreturn"),
                server.rows("SELECT count(*), min(note) FILTER (WHERE id = 3) FROM public.contended"),
                "the chunk's row 3 overwrote the earlier transaction's");
    }

    /** Waits until some session of the server waits on a lock: the COPY, on the other session's key. */
    private static void awaitBlockedOnALock() throws Exception {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
        try (Connection c = server.connect();
                Statement st = c.createStatement()) {
            while (System.nanoTime() < deadline) {
                try (ResultSet rs =
                        st.executeQuery("SELECT count(*) FROM pg_stat_activity WHERE wait_event_type = 'Lock'")) {
                    rs.next();
                    if (rs.getInt(1) > 0) {
                        return;
                    }
                }
                Thread.sleep(50);
            }
        }
        throw new AssertionError("no session waited on a lock");
    }
}
