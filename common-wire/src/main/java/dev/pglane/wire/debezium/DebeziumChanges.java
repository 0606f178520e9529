package dev.pglane.wire.debezium;

import dev.pglane.wire.Lsn;
import dev.pglane.wire.StructReader;
import dev.pglane.wire.envelope.ChangeEvent;
import dev.pglane.wire.envelope.EnvelopeSchemas;
import dev.pglane.wire.envelope.Op;
import dev.pglane.wire.envelope.SourceInfo;
import dev.pglane.wire.envelope.Timestamps;
import dev.pglane.wire.envelope.TransactionInfo;
import dev.pglane.wire.envelope.TruncateInfo;
import java.util.function.BooleanSupplier;
import org.apache.kafka.connect.data.Struct;

/**
 * Reads the change envelopes of Debezium's PostgreSQL connector as {@link ChangeEvent}s of generation 0, with the
 * transaction Debezium's {@code transaction} block names ({@code provide.transaction.metadata=true}): the xid of its
 * id, its {@code total_order} and {@code data_collection_order}. Placeholders for unchanged TOAST values become
 * {@code unchanged_toast} columns. A change without a transaction block (a snapshot row, or a source without
 * transaction metadata) is refused: it belongs to no transaction that could be applied whole and in order.
 *
 * <p>Not thread-safe ({@link UnavailableValues} caches schemas): one per decode thread.
 */
public final class DebeziumChanges {
    /** The {@code source} block of Debezium's PostgreSQL connector. */
    public static final String SOURCE_SCHEMA_NAME = "io.debezium.connector.postgresql.Source";
    /** Debezium's default {@code unavailable.value.placeholder}. */
    public static final String DEFAULT_PLACEHOLDER = "__debezium_unavailable_value";

    private static final String CONTEXT = "Debezium envelope";

    private final RowCopies copies = new RowCopies();
    private final UnavailableValues unavailable;

    /** @param placeholder the source connector's {@code unavailable.value.placeholder} */
    public DebeziumChanges(String placeholder) {
        this.unavailable = new UnavailableValues(placeholder, copies);
    }

    /**
     * The change a Debezium envelope stands for.
     *
     * @param keyless asked for an update or delete, true if the record has no key: Debezium keys a table's records by its primary key, so the
     *     table has none, and its {@code before} (under {@code REPLICA IDENTITY FULL}, the only identity that lets
     *     such a table publish updates and deletes) holds the whole row, which identifies it
     * @throws dev.pglane.wire.WireFormatException naming the field if {@code value} is not a change of Debezium's
     *     PostgreSQL connector within a transaction
     */
    public ChangeEvent fromStruct(Object value, BooleanSupplier keyless) {
        StructReader in = StructReader.ofNameSuffix(value, EnvelopeSchemas.NAME_SUFFIX, CONTEXT);
        Op op = Op.fromCode(in.requiredString("op"));
        if (op == Op.MESSAGE) {
            throw in.invalid("op", op.code(), "logical decoding messages are not applied from Debezium's topics");
        }
        Object sourceBlock = in.optionalBlock("source");
        if (sourceBlock == null) {
            throw in.invalid("source", null, "required field is missing");
        }
        SourceInfo source = source(sourceBlock);
        Object transactionBlock = in.optionalBlock("transaction");
        if (transactionBlock == null) {
            throw in.invalid("transaction", null, missingTransaction(op, source));
        }
        TransactionInfo transaction = transaction(transactionBlock, source.txId());
        UnavailableValues.Stripped after = unavailable.strip(in.optionalStruct("after"));
        Struct before = in.optionalStruct("before");
        // both rows: the sink reads the marks from the schema of the row it writes
        boolean identityIsRow = before != null && keyless.getAsBoolean();
        ChangeEvent.Builder change = ChangeEvent.builder(op, source, transaction)
                .before(identityIsRow ? copies.asIdentity(before) : before)
                .after(identityIsRow ? copies.asIdentity(after.row()) : after.row());
        if (op != Op.UPDATE && !after.columns().isEmpty()) {
            // Debezium writes a key change as a delete and a create; the create's TOAST values it did not read
            throw in.invalid(
                    "after",
                    after.columns(),
                    "columns " + after.columns() + " of a row Debezium created hold its placeholder for a value it did"
                            + " not read (a key change leaves unchanged TOAST values out): the row cannot be written"
                            + " whole; let Debezium read them again (its ReselectColumnsPostProcessor)");
        }
        after.columns().forEach(change::unchangedToast);
        Long tsMs = in.optionalLong("ts_ms");
        if (tsMs != null) {
            change.processingTime(new Timestamps(tsMs, in.optionalLong("ts_us"), in.optionalLong("ts_ns")));
        }
        if (op == Op.TRUNCATE) {
            // Debezium writes one record per table and does not say whether the statement cascaded
            change.truncate(new TruncateInfo(false, false));
        }
        return change.build();
    }

    private static String missingTransaction(Op op, SourceInfo source) {
        if (op == Op.READ) {
            return "a row of Debezium's snapshot (source.snapshot=" + source.snapshot() + ") belongs to no transaction,"
                    + " so pglane's sink cannot apply it in commit order; start Debezium with snapshot.mode=no_data and"
                    + " load existing rows before, or apply its snapshot with another consumer";
        }
        return "required: set provide.transaction.metadata=true on Debezium's source connector";
    }

    private static SourceInfo source(Object block) {
        StructReader in = StructReader.of(block, SOURCE_SCHEMA_NAME, CONTEXT + " source");
        Long txId = in.optionalXid("txId");
        Long lsn = in.optionalLong("lsn");
        if (txId == null || lsn == null) {
            throw in.invalid(txId == null ? "txId" : "lsn", null, "required for a change within a transaction");
        }
        return SourceInfo.read(in, snapshot(in.optionalString("snapshot")), txId, Lsn.valueOf(lsn));
    }

    /** Debezium's finer snapshot values ({@code first}, {@code incremental}, ...) as pglane's three. */
    private static String snapshot(String value) {
        if (value == null || value.equals("false") || value.equals("last")) {
            return value;
        }
        return value.startsWith("last") ? "last" : "true";
    }

    private static TransactionInfo transaction(Object block, long txId) {
        StructReader in = StructReader.ofAnyName(block, CONTEXT + " transaction");
        DebeziumTransactionId id = DebeziumTransactionId.parse(in.requiredString("id"), CONTEXT + " transaction");
        if (id.xid() != txId) {
            throw in.invalid("id", in.requiredString("id"), "names xid " + id.xid() + " but source.txId is " + txId);
        }
        try {
            return new TransactionInfo(
                    id.xid(), in.requiredLong("total_order"), in.requiredLong("data_collection_order"), null, 0L);
        } catch (IllegalArgumentException e) {
            throw in.invalid("total_order", in.requiredLong("total_order"), e.getMessage());
        }
    }
}
