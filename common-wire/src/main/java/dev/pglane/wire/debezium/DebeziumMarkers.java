package dev.pglane.wire.debezium;

import dev.pglane.wire.Lsn;
import dev.pglane.wire.StructReader;
import dev.pglane.wire.TopicNames;
import dev.pglane.wire.marker.DataCollectionCount;
import dev.pglane.wire.marker.Marker;
import java.util.ArrayList;
import java.util.List;

/**
 * Reads the records of Debezium's transaction metadata topic ({@code <topic.prefix>.transaction}) as BEGIN and END
 * markers of generation 0. An END's {@code data_collections} name tables ({@code schema.table}); the topic of each
 * is Debezium's default, {@code <topic.prefix>.<schema>.<table>} with characters Kafka does not take replaced by
 * {@code _}, the name pglane's sink expects the table's records on anyway.
 */
public final class DebeziumMarkers {
    /** The value schema of Debezium's transaction metadata records. */
    public static final String SCHEMA_NAME = "io.debezium.connector.common.TransactionMetadataValue";

    private static final String CONTEXT = "Debezium transaction metadata";

    private DebeziumMarkers() {}

    /**
     * The marker a transaction metadata record stands for.
     *
     * @param topics the source's topics, for the topic of each counted table
     * @throws dev.pglane.wire.WireFormatException naming the field if {@code value} is not Debezium's BEGIN or END
     */
    public static Marker fromStruct(Object value, TopicNames topics) {
        StructReader in = StructReader.of(value, SCHEMA_NAME, CONTEXT);
        String status = in.requiredString("status");
        DebeziumTransactionId id = DebeziumTransactionId.parse(in.requiredString("id"), CONTEXT);
        long commitTsUs = Math.multiplyExact(in.requiredLong("ts_ms"), 1000L);
        return switch (status) {
            case "BEGIN" -> new Marker.Begin(0L, id.xid(), Lsn.INVALID, commitTsUs);
            case "END" -> end(in, id, commitTsUs, topics);
            default -> throw in.invalid("status", status, "must be BEGIN or END");
        };
    }

    private static Marker.End end(StructReader in, DebeziumTransactionId id, long commitTsUs, TopicNames topics) {
        long eventCount = in.requiredAtLeast("event_count", 0);
        List<Object> entries = in.optionalArray("data_collections");
        if (entries == null) {
            throw in.invalid("data_collections", null, "required for END");
        }
        List<DataCollectionCount> counts = new ArrayList<>(entries.size());
        for (Object entry : entries) {
            StructReader e = StructReader.ofAnyName(entry, CONTEXT + " data_collections entry");
            String collection = e.requiredString("data_collection");
            counts.add(new DataCollectionCount(
                    collection,
                    e.requiredAtLeast("event_count", 1),
                    topics.prefix() + "." + TopicNames.sanitize(collection)));
        }
        try {
            return new Marker.End(0L, id.xid(), id.lsn(), id.lsn(), commitTsUs, eventCount, counts);
        } catch (IllegalArgumentException e) {
            throw in.invalid("event_count", eventCount, e.getMessage());
        }
    }
}
