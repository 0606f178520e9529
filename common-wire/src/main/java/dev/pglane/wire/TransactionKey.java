package dev.pglane.wire;

import org.apache.kafka.connect.data.Schema;
import org.apache.kafka.connect.data.SchemaBuilder;
import org.apache.kafka.connect.data.Struct;

/**
 * The key of pglane's markers and logical decoding messages, and of its changes unless the source keys them by row
 * ({@link RowKey}): {@code {xid: INT64}}.
 *
 * <p>Keying by the source transaction id keeps all of one transaction's changes on a topic in one partition, in
 * stream order, so a consumer of one partition sees whole transactions. Records outside any transaction (START,
 * HEARTBEAT, non-transactional messages) use {@link Xid#NONE}.
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
