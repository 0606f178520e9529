package dev.pglane.sink;

/** What the sink does to a target table before the rows of a snapshot that reads the source table whole. */
public enum SnapshotTargetPrepare {
    /** Nothing: each chunk upserts its rows and deletes the rows of its key range it does not hold. */
    NONE,
    /** Empties the table when the chunk that opens the read is applied, so every chunk goes in by COPY. */
    TRUNCATE
}
