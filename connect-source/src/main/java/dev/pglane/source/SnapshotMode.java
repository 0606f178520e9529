package dev.pglane.source;

/** When the source reads the rows that exist in the captured tables ({@code snapshot.mode}). */
public enum SnapshotMode {
    /** When the connector has no stored offset: a new connector sends every existing row while it streams. */
    INITIAL,
    /** Never: only changes made from the slot's position on reach Kafka. */
    NEVER,
    /** As {@link #INITIAL}, then the task stops streaming once every row is sent. */
    INITIAL_ONLY,
    /**
     * As {@link #INITIAL}, and also when the stored offset can no longer be served because the slot is gone or
     * invalidated: the slot is created again and every row is sent again, so the target catches up without a gap.
     */
    WHEN_NEEDED
}
