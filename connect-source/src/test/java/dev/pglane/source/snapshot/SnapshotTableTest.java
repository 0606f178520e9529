package dev.pglane.source.snapshot;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import dev.pglane.source.pgoutput.RelationColumn;
import dev.pglane.source.signal.SnapshotFilter;
import java.util.List;
import org.junit.jupiter.api.Test;

class SnapshotTableTest {

    @Test
    void wideRowsMakeChunksOfFewerRowsSoAChunkStaysWithinItsBytes() {
        // 1,024 rows in 8 MB: 8 KB a row
        SnapshotTable wide = table(1_024, 8L * 1024 * 1024);
        assertEquals(128, wide.rowsPerChunk(10_000, 1024 * 1024), "1 MB of 8 KB rows");
        assertEquals(10_000, wide.rowsPerChunk(10_000, 0), "no byte bound");
        assertEquals(1, wide.rowsPerChunk(10_000, 100), "never less than a row");
        assertEquals(50, table(1_000_000, 100_000_000).rowsPerChunk(50, 32L << 20), "narrow rows: the row bound");
        assertEquals(10_000, table(0, 8192).rowsPerChunk(10_000, 1024), "no statistics: the row bound");
    }

    @Test
    void aConditionMayNameOnlyColumnsThePublicationPublishes() {
        SnapshotTable table = table(0, 0);
        assertNull(table.refusal(SnapshotFilter.where("id > 5")));
        // the column list left card_number out: a condition on it would tell its values by which rows come
        assertEquals(
                "its condition names [card_number], which are not columns the publication publishes for it",
                table.refusal(SnapshotFilter.where("id > 5 AND card_number LIKE '4%'")));
    }

    private static SnapshotTable table(long rows, long bytes) {
        return new SnapshotTable(
                1,
                "public",
                "t",
                'd',
                List.of(new RelationColumn("id", 23, -1, true)),
                List.of(new SnapshotTable.KeyColumn("id", "integer")),
                rows,
                bytes,
                false,
                null);
    }
}
