package dev.pglane.source.reader;

/** What happens to messages written with {@code pg_logical_emit_message} (pgoutput option {@code messages}). */
public enum LogicalMessages {
    /** Not requested from the server. */
    DROP,
    /** Requested and emitted as records. */
    EMIT
}
