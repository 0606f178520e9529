package dev.pglane.source.snapshot;

import dev.pglane.source.signal.RowCondition;

/**
 * One range of one table's rows, read and sent as one snapshot transaction.
 *
 * @param index the chunk's number within its table, from 0 in key (or page) order
 * @param lower where it starts, inclusive; {@code null} at the table's start
 * @param upper where it ends, exclusive; {@code null} at the table's end
 * @param where the condition a signal's filter sets on its rows, or {@code null}: every row of the range (the
 *     publication's row filter applies to every chunk, see {@link SnapshotTable#rowFilter})
 * @param tableStart it opens a read of the whole table: it starts at the table's start, no filter applies, and no
 *     other chunk of the table is read before the stream passes it (see {@link TableChunks#cuttable})
 */
record Chunk(
        SnapshotTable table, long index, ChunkBound lower, ChunkBound upper, RowCondition where, boolean tableStart) {

    /** The chunk in log lines: {@code public.orders chunk 12}. */
    String describe() {
        return table.name() + " chunk " + index;
    }
}
