package dev.pglane.sink.admit;

/** Which part of each source transaction a sink applies ({@code apply.scope}). */
public enum ApplyScope {
    /** All of it: a transaction waits for its records on every change topic its END counts. */
    TRANSACTION,
    /**
     * Its share on the topics the sink consumes, whether assigned yet or not; the records on the others are left to
     * the sinks that consume them: the sink applies a table group.
     */
    CONSUMED_TOPICS
}
