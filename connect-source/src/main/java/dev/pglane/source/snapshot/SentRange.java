package dev.pglane.source.snapshot;

/**
 * The key range of a chunk that was sent while a chunk before it was still out: beyond the table's resume bound, so a
 * restart cuts around it instead of reading it again, and a consumer of exactly-once topics gets each range once.
 *
 * @param lower where it starts (inclusive), never the table's start
 * @param upper where it ends (exclusive); {@code null} at the table's end
 */
record SentRange(ChunkBound.Key lower, ChunkBound.Key upper) {

    static SentRange of(Chunk chunk) {
        return new SentRange((ChunkBound.Key) chunk.lower(), (ChunkBound.Key) chunk.upper());
    }
}
