package dev.pglane.source.schema;

import dev.pglane.source.values.RowDecoder;
import dev.pglane.wire.types.Column;
import java.util.List;
import org.apache.kafka.connect.data.Schema;

/**
 * Immutable: one version of one relation as a Relation message described it, with everything a decoder lane needs
 * to turn its tuples into records. A later Relation message for the same table makes a new descriptor; changes
 * already handed to lanes keep the one they were read with, so a schema change cannot race with decoding.
 */
public final class RelationDescriptor {

    private final int relationId;
    private final String schema;
    private final String table;
    private final char replicaIdentity;
    private final List<Column> columns;
    private final String topic;
    private final Schema rowSchema;
    private final Schema envelopeSchema;
    private final Schema keySchema;
    private final RowDecoder rowDecoder;

    RelationDescriptor(
            int relationId,
            String schema,
            String table,
            char replicaIdentity,
            List<Column> columns,
            String topic,
            Schema envelopeSchema,
            Schema keySchema,
            RowDecoder rowDecoder) {
        this.relationId = relationId;
        this.schema = schema;
        this.table = table;
        this.replicaIdentity = replicaIdentity;
        this.columns = List.copyOf(columns);
        this.topic = topic;
        this.rowSchema = rowDecoder.rowSchema();
        this.envelopeSchema = envelopeSchema;
        this.keySchema = keySchema;
        this.rowDecoder = rowDecoder;
    }

    /** The relation's OID, as row messages refer to it. */
    public int relationId() {
        return relationId;
    }

    /** The schema name ({@code pg_catalog} where the Relation message sent {@code ""}). */
    public String schema() {
        return schema;
    }

    public String table() {
        return table;
    }

    /** {@code d} default, {@code n} nothing, {@code f} full, {@code i} index. */
    public char replicaIdentity() {
        return replicaIdentity;
    }

    /** The published columns in tuple order. */
    public List<Column> columns() {
        return columns;
    }

    /** True if some column is part of the replica identity. */
    public boolean hasKey() {
        return columns.stream().anyMatch(Column::key);
    }

    /** The change topic of the table. */
    public String topic() {
        return topic;
    }

    /** The row struct, {@code <prefix>.<schema>.<table>.Value}. */
    public Schema rowSchema() {
        return rowSchema;
    }

    /** The envelope (record value) schema over {@link #rowSchema()}. */
    public Schema envelopeSchema() {
        return envelopeSchema;
    }

    /**
     * The record key's schema when changes are keyed by row ({@link dev.pglane.wire.RowKey}); {@code null} when
     * they are keyed by transaction, or the table has no key columns.
     */
    public Schema keySchema() {
        return keySchema;
    }

    public RowDecoder rowDecoder() {
        return rowDecoder;
    }

    @Override
    public String toString() {
        return "RelationDescriptor[" + relationId + " " + schema + "." + table + ", " + columns.size() + " columns]";
    }
}
