package dev.pglane.source.snapshot;

import java.util.List;

/** Where a chunk starts (inclusive) or ends (exclusive): a value of the chunk key. */
sealed interface ChunkBound {

    /** The chunk key's values as the server prints them, one per key column. */
    record Key(List<String> values) implements ChunkBound {
        public Key {
            values = List.copyOf(values);
        }
    }
}
