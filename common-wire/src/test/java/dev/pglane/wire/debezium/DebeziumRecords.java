package dev.pglane.wire.debezium;

import java.util.List;
import org.apache.kafka.connect.data.Schema;
import org.apache.kafka.connect.data.SchemaBuilder;
import org.apache.kafka.connect.data.Struct;

/** Records shaped as Debezium 3's PostgreSQL connector writes them, for the readers' tests. */
final class DebeziumRecords {
    static final Schema ROW = SchemaBuilder.struct()
            .name("shop.public.docs.Value")
            .optional()
            .field("id", Schema.INT32_SCHEMA)
            .field("title", Schema.OPTIONAL_STRING_SCHEMA)
            .field("body", Schema.STRING_SCHEMA)
            .field(
                    "tags",
                    SchemaBuilder.array(Schema.OPTIONAL_STRING_SCHEMA)
                            .optional()
                            .build())
            .field("blob", Schema.OPTIONAL_BYTES_SCHEMA)
            .build();

    static final Schema SOURCE = SchemaBuilder.struct()
            .name(DebeziumChanges.SOURCE_SCHEMA_NAME)
            .field("version", Schema.STRING_SCHEMA)
            .field("connector", Schema.STRING_SCHEMA)
            .field("name", Schema.STRING_SCHEMA)
            .field("ts_ms", Schema.INT64_SCHEMA)
            .field("snapshot", Schema.OPTIONAL_STRING_SCHEMA)
            .field("db", Schema.STRING_SCHEMA)
            .field("sequence", Schema.OPTIONAL_STRING_SCHEMA)
            .field("ts_us", Schema.OPTIONAL_INT64_SCHEMA)
            .field("ts_ns", Schema.OPTIONAL_INT64_SCHEMA)
            .field("schema", Schema.STRING_SCHEMA)
            .field("table", Schema.STRING_SCHEMA)
            .field("txId", Schema.OPTIONAL_INT64_SCHEMA)
            .field("lsn", Schema.OPTIONAL_INT64_SCHEMA)
            .field("xmin", Schema.OPTIONAL_INT64_SCHEMA)
            .build();

    static final Schema BLOCK = SchemaBuilder.struct()
            .name("event.block")
            .optional()
            .field("id", Schema.STRING_SCHEMA)
            .field("total_order", Schema.INT64_SCHEMA)
            .field("data_collection_order", Schema.INT64_SCHEMA)
            .build();

    static final Schema ENVELOPE = SchemaBuilder.struct()
            .name("shop.public.docs.Envelope")
            .field("before", ROW)
            .field("after", ROW)
            .field("source", SOURCE)
            .field("transaction", BLOCK)
            .field("op", Schema.STRING_SCHEMA)
            .field("ts_ms", Schema.OPTIONAL_INT64_SCHEMA)
            .field("ts_us", Schema.OPTIONAL_INT64_SCHEMA)
            .field("ts_ns", Schema.OPTIONAL_INT64_SCHEMA)
            .build();

    static final Schema COLLECTION = SchemaBuilder.struct()
            .name("event.collection")
            .field("data_collection", Schema.STRING_SCHEMA)
            .field("event_count", Schema.INT64_SCHEMA)
            .build();

    static final Schema METADATA = SchemaBuilder.struct()
            .name(DebeziumMarkers.SCHEMA_NAME)
            .field("status", Schema.STRING_SCHEMA)
            .field("id", Schema.STRING_SCHEMA)
            .field("event_count", Schema.OPTIONAL_INT64_SCHEMA)
            .field(
                    "data_collections",
                    SchemaBuilder.array(COLLECTION).optional().build())
            .field("ts_ms", Schema.INT64_SCHEMA)
            .build();

    private DebeziumRecords() {}

    static Struct row(int id, String title, String body) {
        return new Struct(ROW).put("id", id).put("title", title).put("body", body);
    }

    static Struct source(long txId, long lsn, String snapshot) {
        return new Struct(SOURCE)
                .put("version", "3.6.1.Final")
                .put("connector", "postgresql")
                .put("name", "shop")
                .put("ts_ms", 1_700_000_000_000L)
                .put("snapshot", snapshot)
                .put("db", "postgres")
                .put("sequence", "[\"100\",\"" + lsn + "\"]")
                .put("schema", "public")
                .put("table", "docs")
                .put("txId", txId)
                .put("lsn", lsn);
    }

    static Struct change(String op, Struct before, Struct after, Struct source, Struct block) {
        return new Struct(ENVELOPE)
                .put("op", op)
                .put("before", before)
                .put("after", after)
                .put("source", source)
                .put("transaction", block)
                .put("ts_ms", 1_700_000_000_100L);
    }

    static Struct block(String id, long totalOrder, long collectionOrder) {
        return new Struct(BLOCK)
                .put("id", id)
                .put("total_order", totalOrder)
                .put("data_collection_order", collectionOrder);
    }

    static Struct metadata(String status, String id, Long eventCount, List<Struct> collections) {
        return new Struct(METADATA)
                .put("status", status)
                .put("id", id)
                .put("event_count", eventCount)
                .put("data_collections", collections)
                .put("ts_ms", 1_700_000_000_000L);
    }

    static Struct collection(String name, long count) {
        return new Struct(COLLECTION).put("data_collection", name).put("event_count", count);
    }
}
