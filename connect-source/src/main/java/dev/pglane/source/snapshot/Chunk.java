package dev.pglane.source.snapshot;

/**
 * One range of one table's rows, read and sent as one snapshot transaction.
 *
 * @param index the chunk's number within its table, from 0 in key (or page) order
 * @param lower where it starts, inclusive; {@code null} at the table's start
 * @param upper where it ends, exclusive; {@code null} at the table's end
 * @param where the condition a signal's filter sets on its rows, or {@code null}: every row of the range
 */
record Chunk(SnapshotTable table, long index, ChunkBound lower, ChunkBound upper, String where) {

    /** The chunk in log lines: {@code public.orders chunk 12}. */
    String describe() {
        return table.name() + " chunk " + index;
    }
}
