package dev.pglane.wire;

import org.apache.kafka.connect.data.Schema;
import org.apache.kafka.connect.data.SchemaBuilder;
import org.apache.kafka.connect.data.Struct;

/**
 * The key of every pglane record, data and marker alike: {@code {xid: INT64}}.
 *
 * <p>Keying by the source transaction id keeps all of one transaction's changes on a topic in one
 * partition, in stream order, which is what lets a consumer rebuild the transaction. Keying by row
 * key (Debezium's choice) would spread a transaction over partitions that lag each other. Records
 * outside any transaction (START, HEARTBEAT, non-transactional messages) use {@link Xid#NONE}.
 */
public final class TransactionKey {

    public static final String SCHEMA_NAME = "dev.pglane.wire.TransactionKey";
    public static final String XID = "xid";

    /** The key schema, version 1. */
    public static final Schema SCHEMA = SchemaBuilder.struct()
            .name(SCHEMA_NAME)
            .version(1)
            .doc("Source transaction id: one transaction's changes share a partition")
            .field(XID, Schema.INT64_SCHEMA)
            .build();

    private TransactionKey() {}

    /** The key struct for {@code xid}. */
    public static Struct of(long xid) {
        return new Struct(SCHEMA).put(XID, Xid.checkRange(xid));
    }

    /**
     * The xid of a key struct.
     *
     * @throws WireFormatException if {@code key} is not a pglane key or its xid is out of range
     */
    public static long xid(Object key) {
        return StructReader.of(key, SCHEMA_NAME, "key").requiredXid(XID);
    }
}
