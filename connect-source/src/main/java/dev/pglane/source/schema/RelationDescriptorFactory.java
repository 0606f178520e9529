package dev.pglane.source.schema;

import dev.pglane.source.RecordKey;
import dev.pglane.source.columns.ColumnRules;
import dev.pglane.source.pgoutput.RelationColumn;
import dev.pglane.source.pgoutput.RelationMessage;
import dev.pglane.source.pgoutput.TypeMessage;
import dev.pglane.source.values.ColumnTreatment;
import dev.pglane.source.values.RowDecoder;
import dev.pglane.wire.RowKey;
import dev.pglane.wire.TopicNames;
import dev.pglane.wire.envelope.EnvelopeSchemas;
import dev.pglane.wire.types.Column;
import dev.pglane.wire.types.PgColumnType;
import dev.pglane.wire.types.PgType;
import dev.pglane.wire.types.RowSchemas;
import dev.pglane.wire.types.ValueMappings;
import java.sql.Connection;
import java.util.ArrayList;
import java.util.List;
import org.apache.kafka.connect.data.Schema;

/**
 * Builds relation descriptors from Relation messages: column types through the {@link TypeCatalog}, the topic
 * through {@link TopicNames}, the row schema through {@link RowSchemas}, the envelope through
 * {@link EnvelopeSchemas}, the key schema (changes keyed by row) through {@link RowKeyColumns}, and a
 * {@link RowDecoder} with one decoder per column.
 */
public final class RelationDescriptorFactory {

    /** What a Relation message's empty namespace stands for. */
    static final String CATALOG_SCHEMA = "pg_catalog";
    /** {@code REPLICA IDENTITY FULL} in a Relation message. */
    private static final char IDENTITY_FULL = 'f';

    private final String topicPrefix;
    private final TopicNames topics;
    private final ValueMappings valueMappings;
    private final EnvelopeSchemas envelopes;
    private final TypeCatalog types;
    private final RowKeyColumns keyColumns;
    private final ColumnRules columnRules;

    public RelationDescriptorFactory(
            String topicPrefix,
            TopicNames topics,
            ValueMappings valueMappings,
            EnvelopeSchemas envelopes,
            TypeCatalog types,
            RowKeyColumns keyColumns) {
        this(topicPrefix, topics, valueMappings, envelopes, types, keyColumns, ColumnRules.NONE);
    }

    /** @param columnRules which columns leave the connector, and which of them masked */
    public RelationDescriptorFactory(
            String topicPrefix,
            TopicNames topics,
            ValueMappings valueMappings,
            EnvelopeSchemas envelopes,
            TypeCatalog types,
            RowKeyColumns keyColumns,
            ColumnRules columnRules) {
        this.columnRules = columnRules;
        this.topicPrefix = topicPrefix;
        this.topics = topics;
        this.valueMappings = valueMappings;
        this.envelopes = envelopes;
        this.types = types;
        this.keyColumns = keyColumns;
    }

    /**
     * The factory of a replication session: types, and the primary keys where {@code recordKey} needs them, are
     * read from the catalog through {@code sql}.
     */
    public static RelationDescriptorFactory reading(
            Connection sql,
            TopicNames topics,
            ValueMappings valueMappings,
            EnvelopeSchemas envelopes,
            RecordKey recordKey,
            ColumnRules columnRules) {
        return new RelationDescriptorFactory(
                topics.prefix(),
                topics,
                valueMappings,
                envelopes,
                new JdbcTypeCatalog(sql),
                RowKeyColumns.of(recordKey, sql),
                columnRules);
    }

    /**
     * @throws IllegalStateException if a column type cannot be resolved
     * @throws IllegalArgumentException if the table's topic or row schema cannot be formed (e.g. a name too long)
     */
    public RelationDescriptor create(RelationMessage message) {
        String schema = message.namespace().isEmpty() ? CATALOG_SCHEMA : message.namespace();
        String table = message.relationName();
        List<Column> columns = new ArrayList<>(message.columns().size());
        for (RelationColumn column : message.columns()) {
            columns.add(
                    new Column(column.name(), types.resolve(column.typeOid(), column.typeModifier()), column.key()));
        }
        List<ColumnTreatment> treatments =
                columnRules.treatments(schema, table, columns, message.replicaIdentity() == IDENTITY_FULL);
        Schema rowSchema = RowSchemas.build(topicPrefix, schema, table, sent(columns, treatments), valueMappings);
        return new RelationDescriptor(
                message.relationId(),
                schema,
                table,
                message.replicaIdentity(),
                columns,
                topics.changeTopic(schema, table),
                envelopes.forRow(rowSchema),
                RowKey.schema(topicPrefix, schema, table, rowSchema, keyColumns.of(message, columns)),
                RowDecoder.create(schema + "." + table, columns, rowSchema, treatments));
    }

    /** The columns records carry: the excluded ones left out, the masked ones as text. */
    private static List<Column> sent(List<Column> columns, List<ColumnTreatment> treatments) {
        List<Column> sent = new ArrayList<>(columns.size());
        for (int i = 0; i < columns.size(); i++) {
            Column column = columns.get(i);
            ColumnTreatment treatment = treatments.get(i);
            if (treatment.masked()) {
                sent.add(new Column(column.name(), PgColumnType.of(PgType.TEXT, -1), column.key()));
            } else if (!treatment.excluded()) {
                sent.add(column);
            }
        }
        return sent;
    }

    /** Passes a Type message on to the catalog, before the Relation message that needs the type. */
    void announced(TypeMessage message) {
        types.announced(message);
    }
}
