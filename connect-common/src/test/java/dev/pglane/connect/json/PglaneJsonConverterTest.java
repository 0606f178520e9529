package dev.pglane.connect.json;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.pglane.wire.TransactionKey;
import dev.pglane.wire.envelope.ChangeEnvelope;
import dev.pglane.wire.envelope.EnvelopeSamples;
import dev.pglane.wire.marker.Marker;
import dev.pglane.wire.marker.MarkerCodec;
import dev.pglane.wire.marker.MarkerSamples;
import java.math.BigDecimal;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import org.apache.kafka.connect.data.Date;
import org.apache.kafka.connect.data.Decimal;
import org.apache.kafka.connect.data.Field;
import org.apache.kafka.connect.data.Schema;
import org.apache.kafka.connect.data.SchemaAndValue;
import org.apache.kafka.connect.data.SchemaBuilder;
import org.apache.kafka.connect.data.Struct;
import org.apache.kafka.connect.data.Time;
import org.apache.kafka.connect.data.Timestamp;
import org.apache.kafka.connect.errors.DataException;
import org.apache.kafka.connect.json.JsonConverter;
import org.junit.jupiter.api.Test;

/** Every record must come out byte for byte as JsonConverter writes it, and read back to the value it gives. */
class PglaneJsonConverterTest {
    private static final String TOPIC = "shop.public.orders";

    private static final Schema INNER = SchemaBuilder.struct()
            .name("inner")
            .field("n", Schema.OPTIONAL_INT32_SCHEMA)
            .field("s", Schema.STRING_SCHEMA)
            .optional()
            .build();
    private static final Schema EVERYTHING = SchemaBuilder.struct()
            .name("everything")
            .field("i8", Schema.INT8_SCHEMA)
            .field("i16", Schema.OPTIONAL_INT16_SCHEMA)
            .field("i32", Schema.INT32_SCHEMA)
            .field("i64", Schema.OPTIONAL_INT64_SCHEMA)
            .field("f32", Schema.OPTIONAL_FLOAT32_SCHEMA)
            .field("f64", Schema.FLOAT64_SCHEMA)
            .field("bool", Schema.OPTIONAL_BOOLEAN_SCHEMA)
            .field("text", Schema.OPTIONAL_STRING_SCHEMA)
            .field("bytes", Schema.OPTIONAL_BYTES_SCHEMA)
            .field("decimal", Decimal.builder(3).optional().build())
            .field("date", Date.builder().optional().build())
            .field("time", Time.builder().optional().build())
            .field("timestamp", Timestamp.builder().optional().build())
            .field("defaulted", SchemaBuilder.int32().optional().defaultValue(7).build())
            .field(
                    "ints",
                    SchemaBuilder.array(Schema.OPTIONAL_INT32_SCHEMA).optional().build())
            .field(
                    "by_name",
                    SchemaBuilder.map(Schema.STRING_SCHEMA, Schema.OPTIONAL_FLOAT64_SCHEMA)
                            .optional()
                            .build())
            .field(
                    "by_number",
                    SchemaBuilder.map(Schema.INT64_SCHEMA, INNER).optional().build())
            .field("inner", INNER)
            .field("inners", SchemaBuilder.array(INNER).optional().build())
            .build();

    @Test
    void pglaneKeysEnvelopesAndMarkersAreWrittenAndReadAsJsonConverterDoes() {
        assertSameAsJsonConverter(true, TransactionKey.of(4_000_000_000L));
        assertSameAsJsonConverter(false, ChangeEnvelope.toStruct(EnvelopeSamples.update(), EnvelopeSamples.ENVELOPE));
        for (Marker marker : MarkerSamples.all()) {
            assertSameAsJsonConverter(false, MarkerCodec.toStruct(marker));
        }
    }

    @Test
    void everyTypeFamilyWithNullsDefaultsAndEdgeValuesIsWrittenAndReadAsJsonConverterDoes() {
        Random random = new Random(42);
        for (int i = 0; i < 500; i++) {
            assertSameAsJsonConverter(false, randomStruct(random));
        }
    }

    @Test
    void alternatingSchemasAreEachRecognized() {
        PglaneJsonConverter converter = converter(false);
        Struct envelope = ChangeEnvelope.toStruct(EnvelopeSamples.update(), EnvelopeSamples.ENVELOPE);
        Struct marker = MarkerCodec.toStruct(MarkerSamples.end());
        for (int i = 0; i < 3; i++) {
            for (Struct struct : List.of(envelope, marker)) {
                byte[] bytes = converter.fromConnectData(TOPIC, struct.schema(), struct);
                assertEquals(struct, converter.toConnectData(TOPIC, bytes).value());
            }
        }
        assertEquals(0, converter.handedOver());
    }

    @Test
    void theStructsAPlainStructsTakesComeAsItMakesThemAndTheOthersAsStructs() {
        PglaneJsonConverter converter = converter(false);
        Struct envelope = ChangeEnvelope.toStruct(EnvelopeSamples.update(), EnvelopeSamples.ENVELOPE);
        byte[] bytes = converter.fromConnectData(TOPIC, envelope.schema(), envelope);

        Object plain = converter.toValue(TOPIC, bytes, new Plain(Set.of(EnvelopeSamples.ENVELOPE.name(), SOURCE)));
        Plain.Made made = assertInstanceOf(Plain.Made.class, plain);
        assertEquals(EnvelopeSamples.ENVELOPE, made.schema());
        for (Field field : EnvelopeSamples.ENVELOPE.fields()) {
            Object value = made.values()[field.index()];
            if (field.name().equals("source")) {
                Plain.Made source = assertInstanceOf(Plain.Made.class, value);
                for (Field sourceField : source.schema().fields()) {
                    assertEquals(envelope.getStruct("source").get(sourceField), source.values()[sourceField.index()]);
                }
            } else {
                assertEquals(envelope.get(field), value, field.name()); // rows and the transaction: Structs
            }
        }

        Struct notTaken = assertInstanceOf(Struct.class, converter.toValue(TOPIC, bytes, new Plain(Set.of(SOURCE))));
        assertEquals(envelope, notTaken, "a struct inside one not taken is a Struct, whatever its schema");
        assertEquals(0, converter.handedOver());

        byte[] elsewhere = "{\"schema\":null,\"payload\":{\"a\":1}}".getBytes(StandardCharsets.UTF_8);
        assertEquals(
                converter.toConnectData(TOPIC, elsewhere).value(),
                converter.toValue(TOPIC, elsewhere, new Plain(Set.of(SOURCE))),
                "off the fast path it is JsonConverter's value");
    }

    private static final String SOURCE = dev.pglane.wire.envelope.SourceInfo.SCHEMA_NAME;

    /** Takes the schemas of the names given, and makes each a {@link Made}. */
    private record Plain(Set<String> names) implements PlainStructs {
        record Made(Schema schema, Object[] values) {}

        @Override
        public boolean takes(Schema schema) {
            return names.contains(schema.name());
        }

        @Override
        public Object make(Schema schema, Object[] values) {
            return new Made(schema, values);
        }
    }

    @Test
    void aValueOfAJsonTypeItsSchemaCannotHoldIsAnErrorForTheSinkNotAZero() {
        PglaneJsonConverter converter = converter(false);
        JsonConverter reference = jsonConverter(false);
        for (String input : List.of(
                "{\"schema\":{\"type\":\"int64\"},\"payload\":[7]}",
                "{\"schema\":{\"type\":\"boolean\"},\"payload\":\"true\"}",
                "{\"schema\":{\"type\":\"struct\",\"fields\":[{\"field\":\"id\",\"type\":\"int32\"}]},"
                        + "\"payload\":{\"id\":{\"x\":1}}}")) {
            byte[] bytes = input.getBytes(StandardCharsets.UTF_8);
            DataException e =
                    assertThrows(DataException.class, () -> converter.toValue(TOPIC, bytes, PlainStructs.NONE), input);
            assertTrue(e.getMessage().contains("does not fit its schema"), e.getMessage());
            if (!input.contains("struct")) {
                // a Converter, read by any consumer, stays what JsonConverter is, however it reads such a value
                assertEquals(reference.toConnectData(TOPIC, bytes), converter.toConnectData(TOPIC, bytes), input);
            }
        }
    }

    @Test
    void anythingElseIsJsonConvertersBusinessErrorsIncluded() {
        PglaneJsonConverter converter = converter(false);
        JsonConverter reference = jsonConverter(false);
        List<String> inputs = List.of(
                "{\"payload\":{\"n\":1,\"s\":\"x\"},\"schema\":{\"type\":\"struct\",\"fields\":[{\"field\":\"n\","
                        + "\"type\":\"int32\",\"optional\":true},{\"field\":\"s\",\"type\":\"string\"}],\"optional\":true}}",
                "{\"schema\":{\"type\":\"int32\"},\"payload\":\"12\"}",
                "{\"schema\":{\"type\":\"double\"},\"payload\":\"NaN\"}",
                "{\"schema\":null,\"payload\":{\"a\":1}}",
                "{\"schema\":{\"type\":\"string\",\"optional\":true},\"payload\":null}");
        for (String input : inputs) {
            byte[] bytes = input.getBytes(StandardCharsets.UTF_8);
            assertEquals(reference.toConnectData(TOPIC, bytes), converter.toConnectData(TOPIC, bytes), input);
        }
        assertEquals(4, converter.handedOver(), "all but the null payload of a known type went to JsonConverter");
        for (String broken :
                List.of("{\"schema\":{\"type\":\"int32\"}}", "not json", "{\"schema\":{\"type\":\"int32\"},")) {
            byte[] bytes = broken.getBytes(StandardCharsets.UTF_8);
            DataException expected = assertThrows(DataException.class, () -> reference.toConnectData(TOPIC, bytes));
            DataException actual = assertThrows(DataException.class, () -> converter.toConnectData(TOPIC, bytes));
            assertEquals(expected.getMessage(), actual.getMessage(), broken);
        }
    }

    @Test
    void aRecordThatFailsHalfWayLeavesTheNextOnesIntact() {
        Schema schema = SchemaBuilder.struct()
                .field("s", Schema.STRING_SCHEMA)
                .field("d", Decimal.schema(2))
                .build();
        PglaneJsonConverter converter = converter(false);
        JsonConverter reference = jsonConverter(false);
        // Struct.put takes any BigDecimal; the writer fails on the scale after it wrote the first field
        Struct wrongScale = new Struct(schema).put("s", "first").put("d", new BigDecimal("1.234"));
        DataException expected =
                assertThrows(DataException.class, () -> reference.fromConnectData(TOPIC, schema, wrongScale));
        DataException actual =
                assertThrows(DataException.class, () -> converter.fromConnectData(TOPIC, schema, wrongScale));
        assertEquals(expected.getMessage(), actual.getMessage());
        for (int i = 0; i < 3; i++) {
            Struct good = new Struct(schema).put("s", "record " + i).put("d", new BigDecimal("12.3" + i));
            assertEquals(
                    new String(reference.fromConnectData(TOPIC, schema, good), StandardCharsets.UTF_8),
                    new String(converter.fromConnectData(TOPIC, schema, good), StandardCharsets.UTF_8));
        }
    }

    @Test
    void withoutSchemasItIsJsonConverter() {
        PglaneJsonConverter converter = new PglaneJsonConverter();
        converter.configure(Map.of("schemas.enable", "false"), false);
        JsonConverter reference = new JsonConverter();
        reference.configure(Map.of("schemas.enable", "false"), false);
        Struct key = TransactionKey.of(9);
        assertArrayEquals(
                reference.fromConnectData(TOPIC, key.schema(), key),
                converter.fromConnectData(TOPIC, key.schema(), key));
    }

    @Test
    void aRequiredFieldWithoutValueFailsAsInJsonConverter() {
        Schema schema = SchemaBuilder.struct().field("s", Schema.STRING_SCHEMA).build();
        byte[] bytes =
                "{\"schema\":{\"type\":\"struct\",\"fields\":[{\"field\":\"s\",\"type\":\"string\",\"optional\":false}],\"optional\":false},\"payload\":{}}"
                        .getBytes(StandardCharsets.UTF_8);
        DataException expected =
                assertThrows(DataException.class, () -> jsonConverter(false).toConnectData(TOPIC, bytes));
        DataException actual =
                assertThrows(DataException.class, () -> converter(false).toConnectData(TOPIC, bytes));
        assertEquals(expected.getMessage(), actual.getMessage());
        assertEquals(Schema.Type.STRUCT, schema.type());
    }

    private static void assertSameAsJsonConverter(boolean isKey, Struct struct) {
        JsonConverter reference = jsonConverter(isKey);
        PglaneJsonConverter converter = converter(isKey);
        byte[] expected = reference.fromConnectData(TOPIC, struct.schema(), struct);
        byte[] actual = converter.fromConnectData(TOPIC, struct.schema(), struct);
        assertEquals(new String(expected, StandardCharsets.UTF_8), new String(actual, StandardCharsets.UTF_8));
        SchemaAndValue back = converter.toConnectData(TOPIC, actual);
        assertEquals(reference.toConnectData(TOPIC, expected), back);
        assertEquals(0, converter.handedOver(), "the fast path wrote and read it");
    }

    private static PglaneJsonConverter converter(boolean isKey) {
        PglaneJsonConverter converter = new PglaneJsonConverter();
        converter.configure(Map.of(), isKey);
        return converter;
    }

    private static JsonConverter jsonConverter(boolean isKey) {
        JsonConverter converter = new JsonConverter();
        converter.configure(Map.of(), isKey);
        return converter;
    }

    private static Struct randomStruct(Random random) {
        Struct struct = new Struct(EVERYTHING)
                .put("i8", (byte) random.nextInt())
                .put("i32", random.nextBoolean() ? Integer.MIN_VALUE : random.nextInt())
                .put("f64", random.nextBoolean() ? random.nextDouble() * 1e300 : -random.nextDouble())
                .put("inner", new Struct(INNER).put("s", "é\"\\\n\u0001" + random.nextInt()));
        if (random.nextBoolean()) {
            struct.put("i16", (short) random.nextInt())
                    .put("i64", random.nextLong())
                    .put("f32", random.nextFloat() * (random.nextBoolean() ? 1e30f : 1e-30f))
                    .put("bool", random.nextBoolean())
                    .put("text", random.nextBoolean() ? "" : "Zürich ☃ " + random.nextLong())
                    .put("bytes", randomBytes(random))
                    .put("decimal", new BigDecimal(random.nextLong()).movePointLeft(3))
                    .put("date", new java.util.Date(random.nextInt(40_000) * 86_400_000L))
                    .put("time", new java.util.Date(random.nextInt(86_400_000)))
                    .put("timestamp", new java.util.Date(random.nextLong() / 1000))
                    .put("defaulted", random.nextBoolean() ? null : random.nextInt())
                    .put("ints", random.nextBoolean() ? List.of() : java.util.Arrays.asList(1, null, -3))
                    .put("by_name", randomByName(random))
                    .put(
                            "by_number",
                            Map.of(
                                    random.nextLong(),
                                    new Struct(INNER).put("s", "v").put("n", 5)))
                    .put("inners", List.of(new Struct(INNER).put("s", "a"), new Struct(INNER).put("s", "b")));
        }
        return struct;
    }

    private static byte[] randomBytes(Random random) {
        byte[] bytes = new byte[random.nextInt(40)];
        random.nextBytes(bytes);
        return bytes;
    }

    private static Map<String, Double> randomByName(Random random) {
        Map<String, Double> map = new LinkedHashMap<>();
        List<String> keys = new ArrayList<>(List.of("a", "b", "c"));
        for (String key : keys) {
            map.put(key, random.nextBoolean() ? null : random.nextGaussian());
        }
        return map;
    }
}
