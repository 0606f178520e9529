package dev.pglane.wire.envelope;

import dev.pglane.wire.Lsn;
import dev.pglane.wire.StructBuilder;
import dev.pglane.wire.StructReader;
import dev.pglane.wire.Xid;
import java.util.Objects;
import java.util.Set;
import org.apache.kafka.connect.data.Schema;
import org.apache.kafka.connect.data.SchemaBuilder;

/**
 * The envelope's {@code source} block: where a change came from, with the fields of Debezium's
 * PostgreSQL {@code source} so that Debezium-aware consumers find what they expect.
 *
 * @param version the connector version that produced the record
 * @param name the topic prefix (Debezium's logical server name)
 * @param db the source database
 * @param schema the table's schema ("" for logical decoding messages)
 * @param table the table ("" for logical decoding messages)
 * @param time commit time; for changes streamed before their commit, the server's send time
 * @param snapshot {@code "true"}, {@code "last"} or {@code "false"} for snapshot rows, else {@code null}
 * @param sequence Debezium's {@code ["<last commit lsn>","<lsn>"]} as decimal strings, or {@code null}
 * @param txId the source transaction id ({@link Xid}), 0 outside transactions
 * @param lsn the WAL position of this change (not monotonic across transactions)
 * @param xmin the slot's xmin if tracked, else {@code null}
 */
public record SourceInfo(
        String version,
        String name,
        String db,
        String schema,
        String table,
        Timestamps time,
        String snapshot,
        String sequence,
        long txId,
        Lsn lsn,
        Long xmin) {

    public static final String SCHEMA_NAME = "dev.pglane.wire.Source";
    public static final String CONNECTOR = "postgresql";

    private static final Set<String> SNAPSHOT_VALUES = Set.of("true", "false", "last");

    /** The {@code source} struct schema, version 1. */
    public static final Schema SCHEMA = SchemaBuilder.struct()
            .name(SCHEMA_NAME)
            .version(1)
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
            .field("txId", Schema.INT64_SCHEMA)
            .field("lsn", Schema.INT64_SCHEMA)
            .field("xmin", Schema.OPTIONAL_INT64_SCHEMA)
            .build();

    public SourceInfo {
        Objects.requireNonNull(version, "version");
        Objects.requireNonNull(name, "name");
        Objects.requireNonNull(db, "db");
        Objects.requireNonNull(schema, "schema");
        Objects.requireNonNull(table, "table");
        Objects.requireNonNull(time, "time");
        Objects.requireNonNull(lsn, "lsn");
        Xid.checkRange(txId);
        if (snapshot != null && !SNAPSHOT_VALUES.contains(snapshot)) {
            throw new IllegalArgumentException("source.snapshot must be true, false or last: " + snapshot);
        }
    }

    /**
     * Debezium's {@code source.sequence}: the previous commit's LSN and this change's LSN as a JSON
     * array of decimal strings, e.g. {@code ["24023128","24023160"]}.
     *
     * @param lastCommitLsn the commit LSN of the previously committed transaction, or {@code null}
     */
    public static String sequenceOf(Lsn lastCommitLsn, Lsn lsn) {
        String last = lastCommitLsn == null ? "null" : "\"" + Long.toUnsignedString(lastCommitLsn.asLong()) + "\"";
        return "[" + last + ",\"" + Long.toUnsignedString(lsn.asLong()) + "\"]";
    }

    /** This block as a {@link #SCHEMA} value of {@code kind}. */
    public Object toValue(StructBuilder.Kind kind) {
        return kind.start(SCHEMA)
                .put("version", version)
                .put("connector", CONNECTOR)
                .put("name", name)
                .put("ts_ms", time.ms())
                .put("snapshot", snapshot)
                .put("db", db)
                .put("sequence", sequence)
                .put("ts_us", time.us())
                .put("ts_ns", time.ns())
                .put("schema", schema)
                .put("table", table)
                .put("txId", txId)
                .put("lsn", lsn.asLong())
                .put("xmin", xmin)
                .build();
    }

    /**
     * Reads a {@code source} struct.
     *
     * @throws dev.pglane.wire.WireFormatException naming the field if the struct does not follow {@link #SCHEMA}
     */
    public static SourceInfo fromStruct(Object value) {
        StructReader in = StructReader.of(value, SCHEMA_NAME, "envelope source");
        long txId = in.requiredXid("txId");
        String snapshot = in.optionalString("snapshot");
        if (snapshot != null && !SNAPSHOT_VALUES.contains(snapshot)) {
            throw in.invalid("snapshot", snapshot, "must be true, false or last");
        }
        return read(in, snapshot, txId, Lsn.valueOf(in.requiredLong("lsn")));
    }

    /**
     * The block {@code in} reads, with the fields whose rules differ between the formats read by the caller: this
     * block's and Debezium's PostgreSQL {@code source} share the rest.
     */
    public static SourceInfo read(StructReader in, String snapshot, long txId, Lsn lsn) {
        return new SourceInfo(
                in.requiredString("version"),
                in.requiredString("name"),
                in.requiredString("db"),
                in.requiredString("schema"),
                in.requiredString("table"),
                new Timestamps(in.requiredLong("ts_ms"), in.optionalLong("ts_us"), in.optionalLong("ts_ns")),
                snapshot,
                in.optionalString("sequence"),
                txId,
                lsn,
                in.optionalLong("xmin"));
    }
}
