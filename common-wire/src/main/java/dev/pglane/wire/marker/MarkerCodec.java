package dev.pglane.wire.marker;

import dev.pglane.wire.Lsn;
import dev.pglane.wire.StructBuilder;
import dev.pglane.wire.StructReader;
import dev.pglane.wire.Xid;
import java.util.ArrayList;
import java.util.List;
import org.apache.kafka.connect.data.Schema;
import org.apache.kafka.connect.data.SchemaBuilder;
import org.apache.kafka.connect.data.Struct;

/**
 * The marker value schema {@code dev.pglane.wire.Marker} and the conversion of {@link Marker}s to and
 * from it. The Debezium fields ({@code status}, {@code id}, {@code event_count},
 * {@code data_collections}, {@code ts_ms}) come first; the pglane fields follow, each null where the
 * marker kind does not use it.
 */
public final class MarkerCodec {

    public static final String SCHEMA_NAME = "dev.pglane.wire.Marker";
    public static final String DATA_COLLECTION_SCHEMA_NAME = "dev.pglane.wire.DataCollection";

    /** One {@code data_collections} entry. */
    public static final Schema DATA_COLLECTION_SCHEMA = SchemaBuilder.struct()
            .name(DATA_COLLECTION_SCHEMA_NAME)
            .version(1)
            .field("data_collection", Schema.STRING_SCHEMA)
            .field("event_count", Schema.INT64_SCHEMA)
            .field("topic", Schema.STRING_SCHEMA)
            .build();

    public static final String SNAPSHOT_CHUNK_SCHEMA_NAME = "dev.pglane.wire.SnapshotChunk";

    /**
     * The version this codec writes and the newest it reads. Version 2 added {@code snapshot}: a reader of version
     * 1 would take a snapshot chunk for an ordinary transaction, so a reader refuses a version it does not know.
     */
    public static final int VERSION = 2;

    public static final String KEY_RANGE_SCHEMA_NAME = "dev.pglane.wire.KeyRange";

    /** The {@code range} of END's {@code snapshot} block. */
    public static final Schema KEY_RANGE_SCHEMA = SchemaBuilder.struct()
            .name(KEY_RANGE_SCHEMA_NAME)
            .version(1)
            .optional()
            .field("columns", SchemaBuilder.array(Schema.STRING_SCHEMA).build())
            .field("lower", SchemaBuilder.array(Schema.STRING_SCHEMA).optional().build())
            .field("upper", SchemaBuilder.array(Schema.STRING_SCHEMA).optional().build())
            .build();

    /** END's {@code snapshot} block. */
    public static final Schema SNAPSHOT_CHUNK_SCHEMA = SchemaBuilder.struct()
            .name(SNAPSHOT_CHUNK_SCHEMA_NAME)
            .version(1)
            .optional()
            .field("snapshot_id", Schema.STRING_SCHEMA)
            .field("table", Schema.STRING_SCHEMA)
            .field("chunk", Schema.INT64_SCHEMA)
            .field("table_done", Schema.BOOLEAN_SCHEMA)
            .field("snapshot_done", Schema.BOOLEAN_SCHEMA)
            .field("range", KEY_RANGE_SCHEMA)
            .field("table_start", Schema.OPTIONAL_BOOLEAN_SCHEMA)
            .build();

    /** The marker value schema, version {@value #VERSION}. */
    public static final Schema SCHEMA = SchemaBuilder.struct()
            .name(SCHEMA_NAME)
            .version(VERSION)
            .field("status", Schema.STRING_SCHEMA)
            .field("id", Schema.OPTIONAL_STRING_SCHEMA)
            .field("event_count", Schema.OPTIONAL_INT64_SCHEMA)
            .field(
                    "data_collections",
                    SchemaBuilder.array(DATA_COLLECTION_SCHEMA).optional().build())
            .field("ts_ms", Schema.INT64_SCHEMA)
            .field("generation", Schema.INT64_SCHEMA)
            .field("xid", Schema.OPTIONAL_INT64_SCHEMA)
            .field("subxid", Schema.OPTIONAL_INT64_SCHEMA)
            .field("commit_lsn", Schema.OPTIONAL_INT64_SCHEMA)
            .field("end_lsn", Schema.OPTIONAL_INT64_SCHEMA)
            .field("lsn", Schema.OPTIONAL_INT64_SCHEMA)
            .field("commit_ts_us", Schema.OPTIONAL_INT64_SCHEMA)
            .field("system_id", Schema.OPTIONAL_STRING_SCHEMA)
            .field("timeline", Schema.OPTIONAL_INT64_SCHEMA)
            .field("snapshot", SNAPSHOT_CHUNK_SCHEMA)
            .build();

    private MarkerCodec() {}

    /** The marker value struct. */
    public static Struct toStruct(Marker marker) {
        return (Struct) toValue(marker, StructBuilder.Kind.STRUCT);
    }

    /** The marker value as a value of {@code kind}. */
    public static Object toValue(Marker marker, StructBuilder.Kind kind) {
        StructBuilder out = kind.start(SCHEMA)
                .put("status", marker.status().name())
                .put("ts_ms", marker.tsMs())
                .put("generation", marker.generation());
        switch (marker.status()) {
            case BEGIN -> {
                Marker.Begin b = (Marker.Begin) marker;
                transaction(out, b.xid())
                        .put("commit_lsn", b.commitLsn().asLong())
                        .put("commit_ts_us", b.commitTsUs());
            }
            case END -> {
                Marker.End e = (Marker.End) marker;
                transaction(out, e.xid())
                        .put("event_count", e.eventCount())
                        .put("data_collections", collections(e.dataCollections(), kind))
                        .put("commit_lsn", e.commitLsn().asLong())
                        .put("end_lsn", e.endLsn().asLong())
                        .put("commit_ts_us", e.commitTsUs());
                if (e.snapshot() != null) {
                    out.put("snapshot", snapshot(e.snapshot(), kind));
                }
            }
            case ABORT -> {
                Marker.Abort a = (Marker.Abort) marker;
                transaction(out, a.xid())
                        .put("subxid", a.subxid())
                        .put("lsn", a.abortLsn().asLong());
            }
            case START -> {
                Marker.Start s = (Marker.Start) marker;
                out.put("lsn", s.resumeLsn().asLong())
                        .put("system_id", s.systemId())
                        .put("timeline", s.timeline());
            }
            case HEARTBEAT -> out.put("lsn", ((Marker.Heartbeat) marker).lsn().asLong());
            default -> throw new IllegalStateException("unhandled marker status " + marker.status());
        }
        return out.build();
    }

    /**
     * Decodes a marker value: a struct, or its {@link dev.pglane.wire.FieldValues}.
     *
     * @throws dev.pglane.wire.WireFormatException naming the field and value if {@code value} is not a
     *     marker, its status is unknown, or a field its status needs is missing or invalid
     */
    public static Marker fromStruct(Object value) {
        StructReader in = StructReader.of(value, SCHEMA_NAME, "marker");
        Integer version = in.schema().version();
        if (version != null && version > VERSION) {
            throw in.invalid(
                    "status",
                    in.requiredString("status"),
                    "the marker schema is version " + version + ", written by a newer pglane source; this reader knows"
                            + " versions up to " + VERSION + ": upgrade the consumer");
        }
        MarkerStatus status = MarkerStatus.fromWire(in.requiredString("status"));
        long generation = in.requiredAtLeast("generation", 0);
        long tsMs = in.requiredLong("ts_ms");
        return switch (status) {
            case BEGIN -> new Marker.Begin(generation, xid(in), lsn(in, "commit_lsn"), in.requiredLong("commit_ts_us"));
            case END -> readEnd(in, generation);
            case ABORT -> new Marker.Abort(generation, tsMs, xid(in), in.requiredXid("subxid"), lsn(in, "lsn"));
            case START ->
                new Marker.Start(
                        generation, tsMs, lsn(in, "lsn"), in.optionalString("system_id"), in.optionalLong("timeline"));
            case HEARTBEAT -> new Marker.Heartbeat(generation, tsMs, lsn(in, "lsn"));
        };
    }

    private static Marker.End readEnd(StructReader in, long generation) {
        long xid = xid(in);
        long eventCount = in.requiredAtLeast("event_count", 0);
        List<Struct> entries = in.optionalArray("data_collections");
        if (entries == null) {
            throw in.invalid("data_collections", null, "required for END");
        }
        List<DataCollectionCount> counts = new ArrayList<>(entries.size());
        for (Struct entry : entries) {
            StructReader e = StructReader.of(entry, DATA_COLLECTION_SCHEMA_NAME, "marker data_collections entry");
            counts.add(new DataCollectionCount(
                    e.requiredString("data_collection"),
                    e.requiredAtLeast("event_count", 1),
                    e.requiredString("topic")));
        }
        long sum = counts.stream().mapToLong(DataCollectionCount::eventCount).sum();
        if (sum != eventCount) {
            throw in.invalid("event_count", eventCount, "differs from the sum " + sum + " of data_collections");
        }
        return new Marker.End(
                generation,
                xid,
                lsn(in, "commit_lsn"),
                lsn(in, "end_lsn"),
                in.requiredLong("commit_ts_us"),
                eventCount,
                counts,
                readSnapshot(in.optionalStruct("snapshot")));
    }

    private static SnapshotChunk readSnapshot(Struct block) {
        if (block == null) {
            return null;
        }
        StructReader s = StructReader.of(block, SNAPSHOT_CHUNK_SCHEMA_NAME, "marker snapshot");
        boolean tableStart = Boolean.TRUE.equals(s.optionalBoolean("table_start"));
        try {
            return new SnapshotChunk(
                    s.requiredString("snapshot_id"),
                    s.requiredString("table"),
                    s.requiredAtLeast("chunk", 0),
                    s.requiredBoolean("table_done"),
                    s.requiredBoolean("snapshot_done"),
                    readRange(s.optionalStruct("range")),
                    tableStart);
        } catch (IllegalArgumentException e) {
            throw s.invalid("table_start", tableStart, e.getMessage());
        }
    }

    private static SnapshotChunk.KeyRange readRange(Struct block) {
        if (block == null) {
            return null;
        }
        StructReader r = StructReader.of(block, KEY_RANGE_SCHEMA_NAME, "marker snapshot range");
        List<String> columns = r.optionalArray("columns");
        if (columns == null) {
            throw r.invalid("columns", null, "required field is missing");
        }
        try {
            return new SnapshotChunk.KeyRange(columns, r.optionalArray("lower"), r.optionalArray("upper"));
        } catch (IllegalArgumentException e) {
            throw r.invalid("lower", r.optionalArray("lower"), e.getMessage());
        }
    }

    private static Object snapshot(SnapshotChunk chunk, StructBuilder.Kind kind) {
        return kind.start(SNAPSHOT_CHUNK_SCHEMA)
                .put("snapshot_id", chunk.snapshotId())
                .put("table", chunk.table())
                .put("chunk", chunk.chunk())
                .put("table_done", chunk.tableDone())
                .put("snapshot_done", chunk.snapshotDone())
                .put("range", chunk.range() == null ? null : range(chunk.range(), kind))
                .put("table_start", chunk.tableStart() ? Boolean.TRUE : null)
                .build();
    }

    private static Object range(SnapshotChunk.KeyRange range, StructBuilder.Kind kind) {
        return kind.start(KEY_RANGE_SCHEMA)
                .put("columns", range.columns())
                .put("lower", range.lower())
                .put("upper", range.upper())
                .build();
    }

    private static StructBuilder transaction(StructBuilder out, long xid) {
        return out.put("id", Xid.format(xid)).put("xid", xid);
    }

    private static List<Object> collections(List<DataCollectionCount> counts, StructBuilder.Kind kind) {
        List<Object> out = new ArrayList<>(counts.size());
        for (DataCollectionCount c : counts) {
            out.add(kind.start(DATA_COLLECTION_SCHEMA)
                    .put("data_collection", c.dataCollection())
                    .put("event_count", c.eventCount())
                    .put("topic", c.topic())
                    .build());
        }
        return out;
    }

    /** The xid of a transaction marker; {@code id} must agree with it. */
    private static long xid(StructReader in) {
        long xid = in.requiredXid("xid");
        String id = in.requiredString("id");
        if (!id.equals(Long.toString(xid))) {
            throw in.invalid("id", id, "must be the xid " + xid + " in decimal");
        }
        return xid;
    }

    private static Lsn lsn(StructReader in, String field) {
        return Lsn.valueOf(in.requiredLong(field));
    }
}
