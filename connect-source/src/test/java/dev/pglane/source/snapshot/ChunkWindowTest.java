package dev.pglane.source.snapshot;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.pglane.source.pgoutput.RelationColumn;
import dev.pglane.source.pgoutput.RelationMessage;
import dev.pglane.source.pgoutput.TestTuples;
import dev.pglane.source.pgoutput.TupleData;
import dev.pglane.wire.envelope.Op;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

class ChunkWindowTest {
    private static final SnapshotTable KEYED = new SnapshotTable(
            1,
            "public",
            "t",
            'd',
            List.of(new RelationColumn("id", 23, -1, true), new RelationColumn("doc", 25, -1, false)),
            List.of(new SnapshotTable.KeyColumn("id", "integer")),
            0,
            0,
            false,
            null);
    private static final SnapshotTable KEYLESS = new SnapshotTable(
            2, "public", "log", 'f', List.of(new RelationColumn("msg", 25, -1, true)), List.of(), 0, 0, false, null);
    /** Sees xids below 100 and 105, not 103 (running) or 110 (later). */
    private static final ReadSnapshot SNAPSHOT = ReadSnapshot.parse("100:106:103");

    @Test
    void changesTheSnapshotAlreadySawLeaveTheRowsAsRead() {
        ChunkWindow window = new ChunkWindow(new Chunk(KEYED, 0, null, null, null, false));
        window.changed(99, Op.UPDATE, null, row("1", "seen"));
        window.changed(105, Op.DELETE, row("2", null), null);
        List<TupleData> rows = List.of(row("1", "seen"), row("3", "c"));
        assertSame(rows, window.atHighWatermark(rows, SNAPSHOT));
    }

    @Test
    void changesItDidNotSeeAreReplayedKeepingUnchangedToastFromTheRowRead() {
        ChunkWindow window = new ChunkWindow(new Chunk(KEYED, 0, null, null, null, false));
        window.changed(103, Op.UPDATE, null, toastUnchanged("1"));
        window.changed(110, Op.DELETE, row("2", null), null);
        window.changed(110, Op.CREATE, null, row("9", "new"));
        List<TupleData> rows = window.atHighWatermark(List.of(row("1", "big"), row("2", "b"), row("3", "c")), SNAPSHOT);
        assertEquals(
                List.of("1=big", "3=c", "9=new"),
                texts(rows).stream().sorted().toList(),
                "every row of the range at the high watermark, the one inserted meanwhile too");
    }

    @Test
    void aRowAnUpdateMovedToANewKeyIsInTheChunkThoughItsOldKeyWasNot() {
        // a key moved into the chunk's range from outside it: without it, a consumer would delete the row
        ChunkWindow window = new ChunkWindow(new Chunk(KEYED, 0, null, null, null, false));
        window.changed(110, Op.UPDATE, row("500", null), row("2", "moved in"));
        window.changed(110, Op.UPDATE, null, row("700", "kept its key, outside"));
        List<TupleData> rows = window.atHighWatermark(List.of(row("1", "a")), SNAPSHOT);
        assertEquals(List.of("1=a", "2=moved in"), texts(rows).stream().sorted().toList());

        ChunkWindow toasted = new ChunkWindow(new Chunk(KEYED, 0, null, null, null, false));
        toasted.changed(110, Op.UPDATE, row("500", null), toastUnchanged("2"));
        assertNull(toasted.atHighWatermark(List.of(row("1", "a")), SNAPSHOT), "values it cannot send: read again");
        assertTrue(toasted.retryReason().contains("new key"), toasted.retryReason());
    }

    @Test
    void aKeylessChunkTakesInsertsToo() {
        ChunkWindow window = new ChunkWindow(new Chunk(KEYLESS, 0, null, null, null, false));
        window.changed(110, Op.CREATE, null, keyless("c"));
        window.changed(110, Op.DELETE, keyless("a"), null);
        window.changed(110, Op.UPDATE, keyless("b"), keyless("b2"));
        List<TupleData> rows = window.atHighWatermark(List.of(keyless("a"), keyless("a"), keyless("b")), SNAPSHOT);
        List<String> values = new ArrayList<>();
        rows.forEach(r -> values.add(r.text(0)));
        assertEquals(List.of("a", "b2", "c"), values.stream().sorted().toList());
    }

    @Test
    void aSchemaChangeOrAnUnseenStreamedCommitAsksForANewRead() {
        ChunkWindow changed = new ChunkWindow(new Chunk(KEYED, 0, null, null, null, false));
        List<RelationColumn> added = new ArrayList<>(KEYED.columns());
        added.add(new RelationColumn("extra", 23, -1, false));
        changed.relationChanged(new RelationMessage(0, 1, "public", "t", 'd', added));
        assertNull(changed.atHighWatermark(List.of(row("1", "a")), SNAPSHOT));
        assertEquals("the table's schema changed while it was read", changed.retryReason());

        ChunkWindow streamed = new ChunkWindow(new Chunk(KEYED, 0, null, null, null, false));
        streamed.streamedCommit(110);
        assertNull(streamed.atHighWatermark(List.of(row("1", "a")), SNAPSHOT));
        assertTrue(streamed.retryReason().contains("streamed"), streamed.retryReason());
    }

    @Test
    void aRelationMessageOfTheColumnsTheChunkWasReadWithIsNoChange() {
        // pgoutput sends one before the table's first change of each session
        ChunkWindow window = new ChunkWindow(new Chunk(KEYED, 0, null, null, null, false));
        window.relationChanged(new RelationMessage(0, 1, "public", "t", 'd', KEYED.columns()));
        List<TupleData> rows = List.of(row("1", "a"));
        assertSame(rows, window.atHighWatermark(rows, SNAPSHOT));

        ChunkWindow identity = new ChunkWindow(new Chunk(KEYED, 0, null, null, null, false));
        identity.relationChanged(new RelationMessage(0, 1, "public", "t", 'f', KEYED.columns()));
        assertNull(identity.atHighWatermark(rows, SNAPSHOT), "a new replica identity changes the old rows sent");
    }

    private static List<String> texts(List<TupleData> rows) {
        return rows.stream().map(r -> r.text(0) + "=" + r.text(1)).toList();
    }

    private static TupleData row(String id, String doc) {
        String line = id + "\t" + (doc == null ? "\\N" : doc) + "\n";
        return CopyTextRow.parse(line.getBytes(StandardCharsets.UTF_8), 2);
    }

    private static TupleData keyless(String msg) {
        return CopyTextRow.parse((msg + "\n").getBytes(StandardCharsets.UTF_8), 1);
    }

    /** An update of the row's key only, its TOASTed doc unchanged and not sent. */
    private static TupleData toastUnchanged(String id) {
        return TestTuples.of(id, TestTuples.UNCHANGED_TOAST);
    }
}
