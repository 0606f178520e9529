package dev.pglane.sink.progress;

/** Where the sink records, in each applied transaction, the source position it has applied up to. */
public enum ProgressStore {
    /** A row per connector in {@code progress.table}; needs only table privileges. */
    TABLE,
    /** A replication origin, as PostgreSQL's subscriber uses; needs EXECUTE on the pg_replication_origin_* functions. */
    REPLICATION_ORIGIN
}
