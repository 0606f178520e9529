package dev.pglane.wire;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;

import dev.pglane.wire.envelope.ChangeEnvelope;
import dev.pglane.wire.envelope.ChangeEvent;
import dev.pglane.wire.envelope.EnvelopeSamples;
import dev.pglane.wire.envelope.EnvelopeSchemas;
import dev.pglane.wire.envelope.LogicalMessage;
import dev.pglane.wire.envelope.Op;
import dev.pglane.wire.envelope.TruncateInfo;
import dev.pglane.wire.marker.Marker;
import dev.pglane.wire.marker.MarkerCodec;
import dev.pglane.wire.marker.MarkerSamples;
import java.nio.charset.StandardCharsets;
import org.apache.kafka.connect.data.Schema;
import org.apache.kafka.connect.errors.DataException;
import org.junit.jupiter.api.Test;

/**
 * FieldValues skip Struct's checks, so what the builders put into them must be exactly what a Struct accepts: turned
 * into a Struct (which checks every value again), each envelope and marker equals the one built as a Struct.
 */
class StructBuilderTest {

    @Test
    void envelopesAsFieldValuesHoldWhatTheirStructsHold() {
        assertSameValues(EnvelopeSamples.update(), EnvelopeSamples.ENVELOPE);
        ChangeEvent truncate = ChangeEvent.builder(
                        Op.TRUNCATE, EnvelopeSamples.source(9, Lsn.parse("0/20")), EnvelopeSamples.transaction(9, 1))
                .truncate(TruncateInfo.fromFlags(3))
                .build();
        assertSameValues(truncate, EnvelopeSamples.ENVELOPE);
        ChangeEvent message = ChangeEvent.builder(Op.MESSAGE, EnvelopeSamples.source(0, Lsn.parse("0/30")), null)
                .message(new LogicalMessage("audit", "hello".getBytes(StandardCharsets.UTF_8), false))
                .build();
        assertSameValues(message, new EnvelopeSchemas().forMessages("shop"));
    }

    @Test
    void markersAsFieldValuesHoldWhatTheirStructsHold() {
        for (Marker marker : MarkerSamples.all()) {
            Object values = MarkerCodec.toValue(marker, StructBuilder.Kind.FIELD_VALUES);
            assertEquals(
                    MarkerCodec.toStruct(marker),
                    assertInstanceOf(FieldValues.class, values).toStruct(),
                    marker::toString);
        }
    }

    @Test
    void aFieldTheSchemaLacksIsRefusedByBothKinds() {
        for (StructBuilder.Kind kind : StructBuilder.Kind.values()) {
            StructBuilder builder = kind.start(MarkerCodec.SCHEMA);
            assertThrows(DataException.class, () -> builder.put("no_such_field", 1L), kind::name);
        }
    }

    private static void assertSameValues(ChangeEvent event, Schema schema) {
        Object values = ChangeEnvelope.toValue(event, schema, StructBuilder.Kind.FIELD_VALUES);
        assertEquals(
                ChangeEnvelope.toStruct(event, schema),
                assertInstanceOf(FieldValues.class, values).toStruct(),
                event::toString);
    }
}
