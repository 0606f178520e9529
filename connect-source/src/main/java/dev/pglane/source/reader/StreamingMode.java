package dev.pglane.source.reader;

/** Whether the server streams large transactions before they commit (pgoutput option {@code streaming}). */
public enum StreamingMode {
    /** Only committed transactions reach Kafka; the server spills large ones to its disk first. */
    OFF,
    /** Changes of large in-progress transactions arrive early; a rollback becomes an ABORT marker. */
    ON
}
