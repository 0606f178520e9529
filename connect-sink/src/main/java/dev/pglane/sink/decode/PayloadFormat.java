package dev.pglane.sink.decode;

/** How the sink reads a record's key and value. */
public enum PayloadFormat {
    /** The worker's converters made Connect data of them, on the task thread, before {@code put()}. */
    CONNECT,
    /**
     * They arrive as bytes ({@code ByteArrayConverter}) holding JSON with schemas, as pglane's and Kafka's
     * JsonConverter write it, and the sink's decode threads read them.
     */
    JSON
}
