package dev.pglane.connect.avro;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import dev.pglane.wire.StructBuilder;
import dev.pglane.wire.TransactionKey;
import dev.pglane.wire.envelope.ChangeEnvelope;
import dev.pglane.wire.envelope.ChangeEvent;
import dev.pglane.wire.envelope.EnvelopeSamples;
import dev.pglane.wire.marker.Marker;
import dev.pglane.wire.marker.MarkerCodec;
import dev.pglane.wire.marker.MarkerSamples;
import io.apicurio.registry.utils.converter.avro.AvroData;
import io.apicurio.registry.utils.converter.avro.AvroDataConfig;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.math.BigDecimal;
import java.nio.ByteBuffer;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.apache.avro.generic.GenericDatumWriter;
import org.apache.avro.io.BinaryEncoder;
import org.apache.avro.io.EncoderFactory;
import org.apache.kafka.connect.data.Date;
import org.apache.kafka.connect.data.Decimal;
import org.apache.kafka.connect.data.Schema;
import org.apache.kafka.connect.data.SchemaBuilder;
import org.apache.kafka.connect.data.Struct;
import org.apache.kafka.connect.data.Time;
import org.apache.kafka.connect.data.Timestamp;
import org.apache.kafka.connect.errors.DataException;
import org.junit.jupiter.api.Test;

/** The encoder's bytes against the reference: Apicurio's AvroData and Avro's GenericDatumWriter, as the converter. */
class ConnectAvroEncoderTest {
    private final AvroData avroData = new AvroData(new AvroDataConfig(AvroPayload.settings(Map.of())));

    @Test
    void envelopesKeysAndMarkersAreWrittenAsAvroDataWritesThem() throws Exception {
        assertSameAsAvroData(
                EnvelopeSamples.ENVELOPE, ChangeEnvelope.toStruct(EnvelopeSamples.update(), EnvelopeSamples.ENVELOPE));
        assertSameAsAvroData(TransactionKey.SCHEMA, TransactionKey.of(4_000_000_000L));
        for (Marker marker : MarkerSamples.all()) {
            assertSameAsAvroData(MarkerCodec.SCHEMA, MarkerCodec.toStruct(marker));
        }
    }

    @Test
    void envelopesAndMarkersAsFieldValuesAreWrittenAsTheirStructs() throws Exception {
        ChangeEvent update = EnvelopeSamples.update();
        assertSameAsAvroData(
                EnvelopeSamples.ENVELOPE,
                ChangeEnvelope.toStruct(update, EnvelopeSamples.ENVELOPE),
                ChangeEnvelope.toValue(update, EnvelopeSamples.ENVELOPE, StructBuilder.Kind.FIELD_VALUES));
        for (Marker marker : MarkerSamples.all()) {
            assertSameAsAvroData(
                    MarkerCodec.SCHEMA,
                    MarkerCodec.toStruct(marker),
                    MarkerCodec.toValue(marker, StructBuilder.Kind.FIELD_VALUES));
        }
    }

    @Test
    void everyConnectTypeRequiredAndOptionalPresentAndNull() throws Exception {
        Schema decimal = Decimal.builder(3).optional().build();
        Schema inner = SchemaBuilder.struct()
                .name("inner")
                .field("x", Schema.OPTIONAL_INT32_SCHEMA)
                .optional()
                .build();
        Schema schema = SchemaBuilder.struct()
                .name("every")
                .field("i8", Schema.INT8_SCHEMA)
                .field("i16", Schema.OPTIONAL_INT16_SCHEMA)
                .field("i32", Schema.INT32_SCHEMA)
                .field("i64", Schema.OPTIONAL_INT64_SCHEMA)
                .field("f32", Schema.FLOAT32_SCHEMA)
                .field("f64", Schema.OPTIONAL_FLOAT64_SCHEMA)
                .field("bool", Schema.BOOLEAN_SCHEMA)
                .field("text", Schema.OPTIONAL_STRING_SCHEMA)
                .field("bytes", Schema.OPTIONAL_BYTES_SCHEMA)
                .field("buffer", Schema.BYTES_SCHEMA)
                .field("decimal", decimal)
                .field("date", Date.builder().optional().build())
                .field("time", Time.SCHEMA)
                .field("timestamp", Timestamp.builder().optional().build())
                .field(
                        "texts",
                        SchemaBuilder.array(Schema.OPTIONAL_STRING_SCHEMA)
                                .optional()
                                .build())
                .field("structs", SchemaBuilder.array(inner).build())
                .field(
                        "byName",
                        SchemaBuilder.map(Schema.STRING_SCHEMA, Schema.OPTIONAL_INT64_SCHEMA)
                                .build())
                .field(
                        "byNumber",
                        SchemaBuilder.map(Schema.INT32_SCHEMA, decimal)
                                .optional()
                                .build())
                .field("inner", inner)
                .build();
        Struct full = new Struct(schema)
                .put("i8", (byte) -7)
                .put("i16", (short) 300)
                .put("i32", Integer.MIN_VALUE)
                .put("i64", Long.MAX_VALUE)
                .put("f32", 1.5f)
                .put("f64", -2.25e300)
                .put("bool", true)
                .put("text", "grüße, 世界")
                .put("bytes", new byte[] {0, 1, (byte) 255})
                .put("buffer", ByteBuffer.wrap(new byte[] {9, 8, 7}))
                .put("decimal", new BigDecimal("-12345678901234567890.123"))
                .put("date", new java.util.Date(19_000L * 86_400_000L))
                .put("time", new java.util.Date(45_296_789L))
                .put("timestamp", new java.util.Date(1_700_000_000_123L))
                .put("texts", Arrays.asList("a", null, ""))
                .put("structs", List.of(new Struct(inner).put("x", 1), new Struct(inner)))
                .put("byName", map("one", 1L, "none", null))
                .put("byNumber", map(1, new BigDecimal("0.001"), 2, null))
                .put("inner", new Struct(inner).put("x", 42));
        assertSameAsAvroData(schema, full);

        Struct sparse = new Struct(schema)
                .put("i8", (byte) 0)
                .put("i32", 0)
                .put("f32", 0f)
                .put("bool", false)
                .put("buffer", ByteBuffer.allocate(0))
                .put("time", new java.util.Date(0))
                .put("structs", List.of())
                .put("byName", Map.of());
        assertSameAsAvroData(schema, sparse);
    }

    @Test
    void aMissingValueIsWrittenAsItsDefaultAndAnOptionalWithADefaultUsesTheUnionsOrder() throws Exception {
        Schema schema = SchemaBuilder.struct()
                .name("defaults")
                .field("required", SchemaBuilder.int32().defaultValue(5).build())
                .field(
                        "optional",
                        SchemaBuilder.string().optional().defaultValue("d").build())
                .build();
        assertSameAsAvroData(schema, new Struct(schema));
        assertSameAsAvroData(schema, new Struct(schema).put("required", 6).put("optional", "e"));
    }

    @Test
    void aRequiredValueThatIsMissingIsRefused() throws Exception {
        Schema schema =
                SchemaBuilder.struct().name("r").field("x", Schema.INT32_SCHEMA).build();
        ConnectAvroEncoder encoder = ConnectAvroEncoder.compile(schema, avroData.fromConnectSchema(schema));
        DataException refused = assertThrows(DataException.class, () -> encode(encoder, new Struct(schema)));
        assertEquals(true, refused.getMessage().contains("null value for field that is required"));
    }

    @Test
    void aPairOfAShapeItDoesNotKnowDoesNotCompile() {
        org.apache.avro.Schema colours = org.apache.avro.Schema.createEnum("colour", null, null, List.of("red"));
        assertThrows(
                ConnectAvroEncoder.Unsupported.class, () -> ConnectAvroEncoder.compile(Schema.STRING_SCHEMA, colours));
        org.apache.avro.Schema threeWays = org.apache.avro.Schema.createUnion(
                org.apache.avro.Schema.create(org.apache.avro.Schema.Type.NULL),
                org.apache.avro.Schema.create(org.apache.avro.Schema.Type.INT),
                org.apache.avro.Schema.create(org.apache.avro.Schema.Type.STRING));
        assertThrows(
                ConnectAvroEncoder.Unsupported.class,
                () -> ConnectAvroEncoder.compile(Schema.OPTIONAL_INT32_SCHEMA, threeWays));
    }

    private void assertSameAsAvroData(Schema schema, Object value) throws Exception {
        assertSameAsAvroData(schema, value, value);
    }

    /** {@code encoded}, written by the encoder, gives the bytes {@code value} gives written through AvroData. */
    private void assertSameAsAvroData(Schema schema, Object value, Object encoded) throws Exception {
        org.apache.avro.Schema avro = avroData.fromConnectSchema(schema);
        ByteArrayOutputStream expected = new ByteArrayOutputStream();
        BinaryEncoder reference = EncoderFactory.get().directBinaryEncoder(expected, null);
        new GenericDatumWriter<>(avro).write(avroData.fromConnectData(schema, value), reference);
        reference.flush();
        assertArrayEquals(
                expected.toByteArray(), encode(ConnectAvroEncoder.compile(schema, avro), encoded), schema.name());
    }

    private static byte[] encode(ConnectAvroEncoder encoder, Object value) throws IOException {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        BinaryEncoder out = EncoderFactory.get().directBinaryEncoder(bytes, null);
        encoder.write(value, out);
        out.flush();
        return bytes.toByteArray();
    }

    private static <K, V> Map<K, V> map(K k1, V v1, K k2, V v2) {
        Map<K, V> map = new LinkedHashMap<>();
        map.put(k1, v1);
        map.put(k2, v2);
        return map;
    }
}
