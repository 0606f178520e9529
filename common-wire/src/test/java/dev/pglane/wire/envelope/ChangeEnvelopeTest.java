package dev.pglane.wire.envelope;

import static dev.pglane.wire.envelope.EnvelopeSamples.ENVELOPE;
import static dev.pglane.wire.envelope.EnvelopeSamples.row;
import static dev.pglane.wire.envelope.EnvelopeSamples.source;
import static dev.pglane.wire.envelope.EnvelopeSamples.transaction;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.pglane.wire.FieldValues;
import dev.pglane.wire.Lsn;
import dev.pglane.wire.WireFormatException;
import dev.pglane.wire.types.Column;
import dev.pglane.wire.types.NumericMapping;
import dev.pglane.wire.types.PgColumnType;
import dev.pglane.wire.types.PgType;
import dev.pglane.wire.types.RowSchemas;
import java.math.BigDecimal;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import org.apache.kafka.connect.data.Field;
import org.apache.kafka.connect.data.Schema;
import org.apache.kafka.connect.data.SchemaBuilder;
import org.apache.kafka.connect.data.Struct;
import org.junit.jupiter.api.Test;

class ChangeEnvelopeTest {

    @Test
    void updateRoundTripsWithEveryExtension() {
        ChangeEvent event = EnvelopeSamples.update();
        Struct struct = ChangeEnvelope.toStruct(event, ENVELOPE);

        assertEquals("shop.public.orders.Envelope", struct.schema().name());
        assertEquals(EnvelopeSchemas.VERSION, struct.schema().version());
        assertEquals("u", struct.getString("op"));
        assertEquals(List.of("note"), struct.getArray("unchanged_toast"));
        assertEquals(Map.of("after.amount", "NaN"), struct.getMap("text_values"));
        Struct tx = struct.getStruct("transaction");
        assertEquals("4000000000", tx.getString("id"));
        assertEquals(4_000_000_000L, tx.getInt64("xid"));
        assertEquals(3L, tx.getInt64("generation"));
        Struct src = struct.getStruct("source");
        assertEquals("postgresql", src.getString("connector"));
        assertEquals(0x1000000A0L, src.getInt64("lsn"));
        assertEquals("[\"256\",\"4294967456\"]", src.getString("sequence"));
        assertEquals(1_700_000_000_123L, src.getInt64("ts_ms"));
        assertEquals(1_700_000_000_123_456_000L, src.getInt64("ts_ns"));
        assertEquals(new BigDecimal("1.50"), struct.getStruct("before").get("amount"));
        assertEquals("2024-03-01T12:30:00.250000Z", struct.getStruct("after").get("placed_at"));

        assertEquals(event, ChangeEnvelope.fromStruct(struct));
    }

    @Test
    void theEnvelopesFieldValuesDecodeAsItsStructAndItsRowsMustBeStructs() {
        ChangeEvent event = EnvelopeSamples.update();
        Struct struct = ChangeEnvelope.toStruct(event, ENVELOPE);
        FieldValues plain = plain(struct, "source", "transaction");
        assertEquals(event, ChangeEnvelope.fromStruct(plain));

        FieldValues plainRow = plain(struct, "source", "after");
        WireFormatException e = assertThrows(WireFormatException.class, () -> ChangeEnvelope.fromStruct(plainRow));
        assertTrue(e.getMessage().startsWith("envelope field 'after'"), e.getMessage());
        assertTrue(e.getMessage().contains("must be a Struct"), e.getMessage());
    }

    /** {@code struct} as FieldValues, and so are its fields named {@code plainFields}. */
    private static FieldValues plain(Struct struct, String... plainFields) {
        List<String> plainNames = List.of(plainFields);
        Object[] values = new Object[struct.schema().fields().size()];
        for (Field field : struct.schema().fields()) {
            Object value = struct.get(field);
            values[field.index()] = plainNames.contains(field.name()) && value != null ? plain((Struct) value) : value;
        }
        return new FieldValues(struct.schema(), values);
    }

    @Test
    void aChangeOfATableStillBeingSnapshottedSaysSoAndRoundTrips() {
        ChangeEvent pending = ChangeEvent.builder(Op.DELETE, source(571, Lsn.parse("0/16B3748")), transaction(571, 1))
                .before(row(1, "1.50", "n"))
                .pendingSnapshot(true)
                .build();
        Struct struct = ChangeEnvelope.toStruct(pending, ENVELOPE);
        assertEquals(Boolean.TRUE, struct.getBoolean("pending_snapshot"));
        assertEquals(pending, ChangeEnvelope.fromStruct(struct));
        assertNull(ChangeEnvelope.toStruct(EnvelopeSamples.update(), ENVELOPE).get("pending_snapshot"));
    }

    @Test
    void anEnvelopeOfANewerSchemaVersionIsRefused() {
        Schema newer = SchemaBuilder.struct()
                .name("shop.public.orders.Envelope")
                .version(EnvelopeSchemas.VERSION + 1)
                .field("op", Schema.STRING_SCHEMA)
                .build();
        WireFormatException e = assertThrows(
                WireFormatException.class, () -> ChangeEnvelope.fromStruct(new Struct(newer).put("op", "c")));
        assertTrue(e.getMessage().contains("newer pglane source"), e.getMessage());
    }

    @Test
    void valuesTheTypedFieldCannotHoldTravelAsText() {
        Schema row = RowSchemas.build(
                "shop",
                "public",
                "grids",
                List.of(
                        new Column("id", PgColumnType.of(PgType.INT4, -1), true),
                        new Column("cells", PgColumnType.of(1007, -1), false),
                        new Column("weight", PgColumnType.of(PgType.NUMERIC, -1), false)),
                NumericMapping.PRECISE);
        Schema envelope = new EnvelopeSchemas().forRow(row);
        ChangeEvent event = ChangeEvent.builder(Op.UPDATE, source(7, Lsn.parse("0/10")), transaction(7, 1))
                .before(new Struct(row).put("id", 1).put("cells", List.of(1, 2)))
                .after(new Struct(row).put("id", 1))
                .textValue(RowImage.BEFORE, "weight", "-Infinity")
                .textValue(RowImage.AFTER, "cells", "[0:1]={{1,2},{3,4}}")
                .textValue(RowImage.AFTER, "weight", "Infinity")
                .build();
        Struct struct = ChangeEnvelope.toStruct(event, envelope);
        assertEquals(
                Map.of("before.weight", "-Infinity", "after.cells", "[0:1]={{1,2},{3,4}}", "after.weight", "Infinity"),
                struct.getMap("text_values"));
        assertNull(struct.getStruct("after").get("cells"));
        assertEquals(event, ChangeEnvelope.fromStruct(struct));
    }

    @Test
    void insertDeleteAndSnapshotRoundTrip() {
        for (Op op : List.of(Op.CREATE, Op.READ)) {
            ChangeEvent event = ChangeEvent.builder(op, source(7, Lsn.parse("0/10")), transaction(7, 1))
                    .after(row(5, "0.01", "n"))
                    .build();
            assertEquals(event, ChangeEnvelope.fromStruct(ChangeEnvelope.toStruct(event, ENVELOPE)));
        }
        ChangeEvent delete = ChangeEvent.builder(Op.DELETE, source(7, Lsn.parse("0/10")), transaction(7, 2))
                .before(row(5, null, null))
                .build();
        Struct struct = ChangeEnvelope.toStruct(delete, ENVELOPE);
        assertNull(struct.get("after"));
        assertNull(struct.get("unchanged_toast"), "empty lists travel as null");
        assertEquals(delete, ChangeEnvelope.fromStruct(struct));
    }

    @Test
    void truncateRoundTrips() {
        ChangeEvent event = ChangeEvent.builder(Op.TRUNCATE, source(9, Lsn.parse("0/20")), transaction(9, 1))
                .truncate(TruncateInfo.fromFlags(3))
                .build();
        Struct struct = ChangeEnvelope.toStruct(event, ENVELOPE);
        assertEquals(true, struct.getStruct("truncate").getBoolean("cascade"));
        assertEquals(true, struct.getStruct("truncate").getBoolean("restart_identity"));
        assertEquals(event, ChangeEnvelope.fromStruct(struct));
        assertEquals(new TruncateInfo(false, true), TruncateInfo.fromFlags(2));
    }

    @Test
    void messagesHaveTheirOwnEnvelope() {
        Schema schema = new EnvelopeSchemas().forMessages("shop");
        assertEquals("shop.messages.Envelope", schema.name());
        assertNull(schema.field("before"));
        byte[] content = "hello".getBytes(StandardCharsets.UTF_8);
        ChangeEvent nonTx = ChangeEvent.builder(Op.MESSAGE, source(0, Lsn.parse("0/30")), null)
                .message(new LogicalMessage("audit", content, false))
                .build();
        ChangeEvent back = ChangeEnvelope.fromStruct(ChangeEnvelope.toStruct(nonTx, schema));
        assertEquals(nonTx, back);
        assertArrayEquals(content, back.message().content());
        assertNull(back.transaction());
    }

    @Test
    void cachesEnvelopeSchemas() {
        EnvelopeSchemas schemas = new EnvelopeSchemas();
        assertSame(schemas.forRow(EnvelopeSamples.ROW), schemas.forRow(EnvelopeSamples.ROW));
        assertSame(schemas.forMessages("shop"), schemas.forMessages("shop"));
    }

    @Test
    void rejectsRowSchemaThatIsNotAValueStruct() {
        assertThrows(IllegalArgumentException.class, () -> new EnvelopeSchemas().forRow(Schema.OPTIONAL_STRING_SCHEMA));
    }

    @Test
    void rejectsEventThatDoesNotFitItsSchema() {
        ChangeEvent message = ChangeEvent.builder(Op.MESSAGE, source(1, Lsn.parse("0/30")), transaction(1, 1))
                .message(new LogicalMessage("p", new byte[0], true))
                .build();
        WireFormatException e =
                assertThrows(WireFormatException.class, () -> ChangeEnvelope.toStruct(message, ENVELOPE));
        assertEquals(
                true,
                e.getMessage()
                        .startsWith("envelope field 'message': schema shop.public.orders.Envelope has no such field"),
                e.getMessage());
    }
}
