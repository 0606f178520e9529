package dev.pglane.source.schema;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.pglane.source.columns.ColumnRules;
import dev.pglane.source.pgoutput.RelationColumn;
import dev.pglane.source.pgoutput.RelationMessage;
import dev.pglane.source.pgoutput.TestTuples;
import dev.pglane.wire.TopicNames;
import dev.pglane.wire.envelope.EnvelopeSchemas;
import dev.pglane.wire.envelope.RowImage;
import dev.pglane.wire.types.ColumnParameters;
import dev.pglane.wire.types.NumericMapping;
import dev.pglane.wire.types.PgColumnType;
import dev.pglane.wire.types.PgType;
import dev.pglane.wire.types.ValueMappings;
import java.util.List;
import org.apache.kafka.connect.data.Schema;
import org.apache.kafka.connect.data.Struct;
import org.junit.jupiter.api.Test;

/** Descriptors built from Relation messages: names, topic, schemas, keys. */
class RelationDescriptorFactoryTest {

    private final EnvelopeSchemas envelopes = new EnvelopeSchemas();

    @Test
    void describesTheRelationWithItsTopicRowSchemaAndEnvelope() {
        RelationDescriptor d = factory(TopicNames.perTable("shop"), NumericMapping.STRING)
                .create(new RelationMessage(
                        0,
                        16384,
                        "sales",
                        "order lines",
                        'f',
                        List.of(
                                new RelationColumn("id", PgType.INT8.oid(), -1, true),
                                new RelationColumn("amount", PgType.NUMERIC.oid(), (10 << 16 | 2) + 4, true))));
        assertEquals(16384, d.relationId());
        assertEquals("sales", d.schema());
        assertEquals("order lines", d.table());
        assertEquals('f', d.replicaIdentity());
        assertTrue(d.hasKey());
        assertEquals("shop.sales.order_lines", d.topic());
        assertEquals("shop.sales.order_lines.Value", d.rowSchema().name());
        assertSame(envelopes.forRow(d.rowSchema()), d.envelopeSchema());
        Schema amount = d.rowSchema().field("amount").schema();
        assertEquals(Schema.Type.STRING, amount.type(), "numeric.mapping=string");
        assertEquals("numeric(10,2)", ColumnParameters.pgType(amount));
        assertTrue(ColumnParameters.isKey(amount));
        assertSame(d.rowSchema(), d.rowDecoder().rowSchema());
        assertEquals(
                List.of("id", "amount"), d.columns().stream().map(c -> c.name()).toList());
    }

    @Test
    void anEmptyNamespaceIsPgCatalogAndASingleTopicIsShared() {
        RelationDescriptor d = factory(TopicNames.singleTopic("shop", null), NumericMapping.PRECISE)
                .create(new RelationMessage(
                        0, 1, "", "pg_thing", 'n', List.of(new RelationColumn("x", PgType.TEXT.oid(), -1, false))));
        assertEquals("pg_catalog", d.schema());
        assertEquals("shop.changes", d.topic());
        assertFalse(d.hasKey());
    }

    @Test
    void anUnresolvableTypeIsAnError() {
        RelationDescriptorFactory factory = new RelationDescriptorFactory(
                "shop",
                TopicNames.perTable("shop"),
                ValueMappings.DEFAULT,
                envelopes,
                (oid, typmod) -> {
                    throw new IllegalStateException("type OID " + oid + " is unknown");
                },
                RowKeyColumns.NONE);
        RelationMessage message =
                new RelationMessage(0, 1, "public", "t", 'd', List.of(new RelationColumn("x", 90001, -1, false)));
        assertThrows(IllegalStateException.class, () -> factory.create(message));
    }

    /**
     * Column rules shape the row: an excluded column has no field and its value is never decoded (a text no decoder
     * could read passes), a masked one is a string field with the masked text; the descriptor still describes the
     * tuple as sent, every column.
     */
    @Test
    void columnRulesLeaveExcludedColumnsOutAndMaskedOnesAsText() {
        ColumnRules rules =
                new ColumnRules(List.of(), List.of(".*\\.born"), List.of(), List.of(".*\\.salary"), "", "****");
        RelationDescriptor d = new RelationDescriptorFactory(
                        "shop",
                        TopicNames.perTable("shop"),
                        ValueMappings.DEFAULT,
                        envelopes,
                        PgColumnType::of,
                        RowKeyColumns.NONE,
                        rules)
                .create(new RelationMessage(
                        0,
                        7,
                        "hr",
                        "staff",
                        'd',
                        List.of(
                                new RelationColumn("id", PgType.INT4.oid(), -1, true),
                                new RelationColumn("born", PgType.DATE.oid(), -1, false),
                                new RelationColumn("salary", PgType.INT4.oid(), -1, false))));
        assertEquals(
                List.of("id", "salary"),
                d.rowSchema().fields().stream().map(f -> f.name()).toList());
        assertEquals(Schema.Type.STRING, d.rowSchema().field("salary").schema().type());
        assertEquals(3, d.columns().size(), "the tuple's columns as sent");
        Struct row = d.rowDecoder()
                .decode(TestTuples.of("7", "not a date", "90000"), RowImage.AFTER)
                .row();
        assertEquals(7, row.get("id"));
        assertEquals("****", row.get("salary"));
    }

    private RelationDescriptorFactory factory(TopicNames topics, NumericMapping mode) {
        return new RelationDescriptorFactory(
                "shop", topics, ValueMappings.of(mode), envelopes, PgColumnType::of, RowKeyColumns.NONE);
    }
}
