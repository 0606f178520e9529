package dev.pglane.source.snapshot;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.pglane.source.pgoutput.RelationColumn;
import dev.pglane.source.signal.SnapshotFilter;
import java.util.List;
import org.junit.jupiter.api.Test;

class TableChunksTest {
    private static final SnapshotTable TABLE = new SnapshotTable(
            1,
            "public",
            "t",
            'd',
            List.of(new RelationColumn("id", 23, -1, true)),
            List.of(new SnapshotTable.KeyColumn("id", "integer")),
            0,
            0,
            false,
            null);

    @Test
    void theChunkThatOpensTheTableGoesOutAloneThenTheRestFollowInParallel() {
        TableChunks chunks = new TableChunks(TABLE, null, 100, null);
        Chunk first = cut(chunks, "100");
        assertTrue(first.tableStart());
        assertFalse(chunks.cuttable(), "no other chunk is read before the stream passes the first");
        chunks.sent(first);
        Chunk second = cut(chunks, "200");
        assertFalse(second.tableStart());
        assertTrue(chunks.cuttable(), "later chunks are read side by side");
        Chunk third = cut(chunks, null);
        assertFalse(third.tableStart());
    }

    @Test
    void aTableResumedPastItsStartOrFilteredOpensNothing() {
        TableChunks resumed = new TableChunks(TABLE, new ChunkBound.Key(List.of("100")), 100, null);
        assertFalse(cut(resumed, "200").tableStart());
        assertTrue(resumed.cuttable());
        TableChunks filtered = new TableChunks(TABLE, null, 100, SnapshotFilter.range(null, List.of("500")));
        assertFalse(cut(filtered, "100").tableStart(), "a range from the start still leaves rows after its end");
        assertTrue(filtered.cuttable());
    }

    @Test
    void aTableResumedAtItsStartOpensItAgain() {
        TableChunks again = new TableChunks(TABLE, null, 100, null);
        assertTrue(cut(again, null).tableStart(), "a run that sent no chunk of the table reads it whole again");
    }

    private static Chunk cut(TableChunks chunks, String upper) {
        assertTrue(chunks.cuttable());
        chunks.startCutting();
        return chunks.cut(upper == null ? null : new ChunkBound.Key(List.of(upper)));
    }
}
