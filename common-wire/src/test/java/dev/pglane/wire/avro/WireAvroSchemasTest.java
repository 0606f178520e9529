package dev.pglane.wire.avro;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import dev.pglane.wire.TransactionKey;
import dev.pglane.wire.envelope.EnvelopeSamples;
import dev.pglane.wire.envelope.SourceInfo;
import dev.pglane.wire.envelope.TransactionInfo;
import dev.pglane.wire.marker.MarkerCodec;
import io.apicurio.registry.utils.converter.avro.AvroData;
import java.util.stream.Collectors;
import org.apache.avro.LogicalType;
import org.apache.avro.Schema;
import org.junit.jupiter.api.Test;

/**
 * The shipped .avsc files parse and describe what an Avro converter makes of the Connect schemas
 * (Apicurio's AvroData). Compared by structure: names, field names, types, logical types; the
 * converters' {@code connect.*} properties and docs are ignored.
 */
class WireAvroSchemasTest {

    private static Schema converted(org.apache.kafka.connect.data.Schema connect) {
        return new AvroData(16).fromConnectSchema(connect);
    }

    @Test
    void keyMatches() {
        assertSameShape(converted(TransactionKey.SCHEMA), WireAvroSchemas.key());
    }

    @Test
    void markerMatches() {
        assertSameShape(converted(MarkerCodec.SCHEMA), WireAvroSchemas.marker());
    }

    @Test
    void sourceAndTransactionBlocksMatch() {
        assertSameShape(converted(SourceInfo.SCHEMA), WireAvroSchemas.source());
        assertSameShape(converted(TransactionInfo.SCHEMA), WireAvroSchemas.transaction());
    }

    @Test
    void exampleEnvelopeMatches() {
        assertSameShape(converted(EnvelopeSamples.ENVELOPE), WireAvroSchemas.exampleEnvelope());
        assertEquals(
                "shop.public.orders.Envelope", WireAvroSchemas.exampleEnvelope().getFullName());
    }

    @Test
    void missingResourceIsNamed() {
        IllegalArgumentException e =
                assertThrows(IllegalArgumentException.class, () -> WireAvroSchemas.load("nope.avsc"));
        assertEquals("no Avro schema resource /dev/pglane/wire/avro/nope.avsc", e.getMessage());
    }

    /** Compares two schemas by a canonical description; a nullable union counts as its branch. */
    private static void assertSameShape(Schema expected, Schema actual) {
        assertEquals(shape(unwrapNullable(expected)), shape(unwrapNullable(actual)));
    }

    private static Schema unwrapNullable(Schema schema) {
        return schema.getType() == Schema.Type.UNION && schema.getTypes().size() == 2
                ? schema.getTypes().get(1)
                : schema;
    }

    private static String shape(Schema schema) {
        LogicalType logical = schema.getLogicalType();
        String suffix = logical == null ? "" : "@" + logical.getName();
        return switch (schema.getType()) {
            case RECORD ->
                schema.getFullName() + "{"
                        + schema.getFields().stream()
                                .map(f -> f.name() + ":" + shape(f.schema()))
                                .collect(Collectors.joining(","))
                        + "}";
            case UNION ->
                schema.getTypes().stream().map(WireAvroSchemasTest::shape).collect(Collectors.joining("|", "(", ")"));
            case ARRAY -> "array<" + shape(schema.getElementType()) + ">";
            case MAP -> "map<" + shape(schema.getValueType()) + ">";
            default -> schema.getType().getName() + suffix;
        };
    }
}
