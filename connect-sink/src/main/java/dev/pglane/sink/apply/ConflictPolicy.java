package dev.pglane.sink.apply;

/** What the sink does when a change does not fit the target row (insert of an existing key, update or delete of a missing one). */
public enum ConflictPolicy {
    /** Stop the task, naming the transaction, table and key. */
    ERROR,
    /** Count and log the change, apply the rest of the transaction. */
    SKIP,
    /** Turn the insert or update into INSERT ... ON CONFLICT DO UPDATE; a delete of a missing row is skipped. */
    UPSERT
}
