package dev.pglane.sink.apply;

import dev.pglane.sink.target.TableName;

/**
 * Told of every conflict an apply session meets, whatever the policy does with it, and of the misses of changes of
 * tables whose snapshot is pending, which are no conflicts (for metrics).
 */
@FunctionalInterface
public interface ConflictListener {
    /** An insert found its key taken. */
    String INSERT_EXISTS = "insert_exists";
    /** An update found no row with its key. */
    String UPDATE_MISSING = "update_missing";
    /** A delete found no row with its key. */
    String DELETE_MISSING = "delete_missing";

    /** Ignores conflicts. */
    ConflictListener NONE = (kind, table) -> {};

    /**
     * Called on the worker thread, once per conflicting row.
     *
     * @param kind {@link #INSERT_EXISTS}, {@link #UPDATE_MISSING} or {@link #DELETE_MISSING}
     */
    void conflict(String kind, TableName table);

    /**
     * Called on the worker thread, once per row of a change flagged {@code pending_snapshot} that found the target
     * otherwise than the change expects: the snapshot chunk that brings the row has not been applied yet, or was
     * read after the change. Such a change always upserts, and this is not a conflict.
     *
     * @param kind as for {@link #conflict}
     */
    default void pendingSnapshotMiss(String kind, TableName table) {}
}
