package dev.pglane.wire.marker;

import java.util.Objects;

/**
 * One entry of an END marker's {@code data_collections}: how many records of the transaction went to
 * one table, and on which topic a consumer finds them.
 *
 * @param dataCollection {@code <schema>.<table>} as PostgreSQL names it (not sanitised), or
 *     {@link #MESSAGES} for transactional logical decoding messages
 * @param topic the Kafka topic holding these records
 */
public record DataCollectionCount(String dataCollection, long eventCount, String topic) {

    /**
     * The data collection of transactional logical decoding messages. It has no dot, so it cannot
     * clash with a {@code schema.table} name.
     */
    public static final String MESSAGES = "messages";

    public DataCollectionCount {
        Objects.requireNonNull(dataCollection, "dataCollection");
        Objects.requireNonNull(topic, "topic");
        if (eventCount < 1) {
            throw new IllegalArgumentException(
                    "event_count of " + dataCollection + " must be at least 1: " + eventCount);
        }
    }

    /** The {@code data_collection} value of a table. */
    public static String of(String schema, String table) {
        return schema + "." + table;
    }
}
