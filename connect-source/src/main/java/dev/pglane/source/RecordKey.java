package dev.pglane.source;

/** What a change record is keyed by; markers and logical decoding messages are keyed by xid either way. */
public enum RecordKey {
    /** The xid: a transaction's changes on a topic share one partition, in stream order. */
    TRANSACTION,
    /**
     * The row's key columns, as Debezium keys them, for consumers that keep one row per key (upserting sinks, log
     * compaction); the xid travels in a header and the envelope.
     */
    ROW
}
