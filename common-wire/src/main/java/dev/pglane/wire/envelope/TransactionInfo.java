package dev.pglane.wire.envelope;

import dev.pglane.wire.StructBuilder;
import dev.pglane.wire.StructReader;
import dev.pglane.wire.Xid;
import org.apache.kafka.connect.data.Schema;
import org.apache.kafka.connect.data.SchemaBuilder;

/**
 * The envelope's {@code transaction} block: Debezium's {@code id}, {@code total_order} and
 * {@code data_collection_order}, extended with what a consumer needs to rebuild a transaction.
 *
 * <p>Unlike Debezium, {@code id} is the plain xid in decimal (Debezium writes {@code "xid:lsn"} with
 * an LSN that changes from record to record), so it is equal for every record of the transaction.
 *
 * @param xid the top-level transaction id
 * @param totalOrder 1-based position of this record in the transaction's stream; records of aborted
 *     subtransactions keep their positions, so the sequence may have gaps after an ABORT
 * @param dataCollectionOrder 1-based position among this transaction's records on the same table
 * @param subxid the subtransaction xid a streamed change carried, or {@code null} if not streamed
 * @param generation the source task run that emitted the record (see the marker package)
 */
public record TransactionInfo(long xid, long totalOrder, long dataCollectionOrder, Long subxid, long generation) {

    public static final String SCHEMA_NAME = "dev.pglane.wire.TransactionBlock";

    /** The {@code transaction} struct schema, version 1; optional because non-transactional messages have none. */
    public static final Schema SCHEMA = SchemaBuilder.struct()
            .name(SCHEMA_NAME)
            .version(1)
            .optional()
            .field("id", Schema.STRING_SCHEMA)
            .field("total_order", Schema.INT64_SCHEMA)
            .field("data_collection_order", Schema.INT64_SCHEMA)
            .field("xid", Schema.INT64_SCHEMA)
            .field("subxid", Schema.OPTIONAL_INT64_SCHEMA)
            .field("generation", Schema.INT64_SCHEMA)
            .build();

    public TransactionInfo {
        Xid.checkRange(xid);
        if (subxid != null) {
            Xid.checkRange(subxid);
        }
        if (totalOrder < 1 || dataCollectionOrder < 1 || dataCollectionOrder > totalOrder) {
            throw new IllegalArgumentException("need 1 <= data_collection_order (" + dataCollectionOrder
                    + ") <= total_order (" + totalOrder + ")");
        }
        if (generation < 0) {
            throw new IllegalArgumentException("generation must not be negative: " + generation);
        }
    }

    /** Debezium's {@code id}: the xid as decimal text. */
    public String id() {
        return Xid.format(xid);
    }

    public Object toValue(StructBuilder.Kind kind) {
        return kind.start(SCHEMA)
                .put("id", id())
                .put("total_order", totalOrder)
                .put("data_collection_order", dataCollectionOrder)
                .put("xid", xid)
                .put("subxid", subxid)
                .put("generation", generation)
                .build();
    }

    /**
     * Reads a {@code transaction} struct.
     *
     * @throws dev.pglane.wire.WireFormatException naming the field if it does not follow {@link #SCHEMA}
     */
    public static TransactionInfo fromStruct(Object value) {
        StructReader in = StructReader.of(value, SCHEMA_NAME, "envelope transaction");
        long xid = in.requiredXid("xid");
        String id = in.requiredString("id");
        if (!id.equals(Long.toString(xid))) {
            throw in.invalid("id", id, "must be the xid " + xid + " in decimal");
        }
        long total = in.requiredAtLeast("total_order", 1);
        long perTable = in.requiredAtLeast("data_collection_order", 1);
        if (perTable > total) {
            throw in.invalid("data_collection_order", perTable, "must not exceed total_order " + total);
        }
        Long subxid = in.optionalXid("subxid");
        long generation = in.requiredAtLeast("generation", 0);
        return new TransactionInfo(xid, total, perTable, subxid, generation);
    }
}
