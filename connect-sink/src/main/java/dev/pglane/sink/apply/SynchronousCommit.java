package dev.pglane.sink.apply;

/**
 * The {@code synchronous_commit} of the apply sessions. Progress is stored in the same transaction
 * as the changes, so a commit lost in a crash is simply applied again: {@code off} is safe, as for
 * PostgreSQL's own subscriber.
 */
public enum SynchronousCommit {
    OFF,
    LOCAL,
    REMOTE_WRITE,
    ON,
    REMOTE_APPLY
}
