package dev.pglane.wire.envelope;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import dev.pglane.wire.WireFormatException;
import java.util.Map;
import org.apache.kafka.connect.data.Schema;
import org.apache.kafka.connect.data.SchemaBuilder;
import org.apache.kafka.connect.data.Struct;
import org.junit.jupiter.api.Test;

/** Malformed envelopes as a sink may receive them: every error names the field and the value. */
class EnvelopeReaderTest {

    private static Struct valid() {
        return ChangeEnvelope.toStruct(EnvelopeSamples.update(), EnvelopeSamples.ENVELOPE);
    }

    private static String failure(Object value) {
        return assertThrows(WireFormatException.class, () -> ChangeEnvelope.fromStruct(value))
                .getMessage();
    }

    @Test
    void wrongSchemaName() {
        Schema other = SchemaBuilder.struct()
                .name("shop.public.orders.Value")
                .field("op", Schema.STRING_SCHEMA)
                .build();
        assertEquals(
                "envelope field 'schema name': must be *.Envelope (value: shop.public.orders.Value)",
                failure(new Struct(other).put("op", "c")));
        assertEquals("envelope: expected a Struct named *.Envelope but got null", failure(null));
    }

    @Test
    void unknownOp() {
        assertEquals(
                "envelope field 'op': unknown operation, expected one of c,u,d,t,r,m (value: x)",
                failure(valid().put("op", "x")));
    }

    @Test
    void opThatDoesNotFitTheFields() {
        assertEquals(
                "envelope field 'after': required for op 'c' but missing (value: null)",
                failure(valid().put("op", "c").put("after", null).put("before", null)));
    }

    @Test
    void missingSourceAndNestedFields() {
        assertEquals(
                "envelope field 'source': required field is missing (value: null)",
                failure(withoutField(valid(), "source")));
        Struct struct = valid();
        struct.getStruct("transaction").put("id", "17");
        assertEquals(
                "envelope transaction field 'id': must be the xid 4000000000 in decimal (value: 17)", failure(struct));
        Struct order = valid();
        order.getStruct("transaction").put("total_order", 0L);
        assertEquals("envelope transaction field 'total_order': must be at least 1 (value: 0)", failure(order));
        Struct snapshot = valid();
        snapshot.getStruct("source").put("snapshot", "maybe");
        assertEquals("envelope source field 'snapshot': must be true, false or last (value: maybe)", failure(snapshot));
    }

    @Test
    void textValueKeyWithoutImage() {
        assertEquals(
                "envelope field 'text_values': key must be before.<column> or after.<column> (value: total)",
                failure(valid().put("text_values", Map.of("total", "NaN"))));
    }

    @Test
    void processingTimeNeedsMilliseconds() {
        assertEquals(
                "envelope field 'ts_ms': required when ts_us or ts_ns is set (value: null)",
                failure(valid().put("ts_ms", null)));
    }

    /** A copy of the struct under a schema that lacks {@code field} (Connect structs cannot drop fields). */
    private static Struct withoutField(Struct struct, String field) {
        SchemaBuilder builder = SchemaBuilder.struct().name(struct.schema().name());
        struct.schema().fields().stream()
                .filter(f -> !f.name().equals(field))
                .forEach(f -> builder.field(f.name(), f.schema()));
        Schema schema = builder.build();
        Struct copy = new Struct(schema);
        schema.fields().forEach(f -> copy.put(f.name(), struct.get(f.name())));
        return copy;
    }
}
