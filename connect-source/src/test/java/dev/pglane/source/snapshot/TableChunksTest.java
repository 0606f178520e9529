package dev.pglane.source.snapshot;

import static org.junit.jupiter.api.Assertions.assertEquals;
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

    @Test
    void chunksSentWhileAnEarlierOneWasOutAreRecordedAndARestartCutsAroundThem() {
        TableChunks chunks = new TableChunks(TABLE, new ChunkBound.Key(List.of("100")), 100, null);
        Chunk a = cut(chunks, "200");
        Chunk b = cut(chunks, "300");
        Chunk c = cut(chunks, "400");
        chunks.sent(b);
        chunks.sent(c);
        assertEquals(new ChunkBound.Key(List.of("100")), chunks.resumeBound(), "a is still out");
        List<SentRange> ahead = chunks.sentAhead();
        assertEquals(List.of(SentRange.of(b), SentRange.of(c)), ahead);

        // the restart: from 100, with 200..300 and 300..400 sent; the rows after 100 fit one chunk before 200
        TableChunks resumed = new TableChunks(TABLE, chunks.resumeBound(), ahead, 100, null);
        Chunk again = cut(resumed, null);
        assertEquals(new ChunkBound.Key(List.of("100")), again.lower());
        assertEquals(new ChunkBound.Key(List.of("200")), again.upper(), "ends where the sent range starts");
        assertTrue(resumed.cuttable(), "the table goes on after the sent ranges");
        Chunk rest = cut(resumed, null);
        assertEquals(new ChunkBound.Key(List.of("400")), rest.lower(), "both sent ranges are passed over");
        assertEquals(null, rest.upper());
        assertFalse(resumed.cuttable(), "all cut");
        assertEquals(ahead, resumed.sentAhead(), "until it is sent, the next restart still skips them");
        resumed.sent(again);
        resumed.sent(rest);
        assertTrue(resumed.done());
        assertEquals(List.of(), resumed.sentAhead());

        chunks.sent(a);
        assertEquals(List.of(), chunks.sentAhead(), "once a is sent the bound covers them");
    }

    @Test
    void aSentRangeThatEndsTheTableEndsTheCutting() {
        SentRange last = new SentRange(new ChunkBound.Key(List.of("200")), null);
        TableChunks resumed = new TableChunks(TABLE, new ChunkBound.Key(List.of("100")), List.of(last), 100, null);
        Chunk before = cut(resumed, null);
        assertEquals(new ChunkBound.Key(List.of("200")), before.upper());
        assertFalse(resumed.cuttable(), "nothing after the range that reached the end");
        resumed.sent(before);
        assertTrue(resumed.done());
    }

    private static Chunk cut(TableChunks chunks, String upper) {
        assertTrue(chunks.cuttable());
        chunks.startCutting();
        return chunks.cut(upper == null ? null : new ChunkBound.Key(List.of(upper)));
    }
}
