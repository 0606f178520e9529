package dev.pglane.sink;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.pglane.connect.avro.AvroPayload;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Random;
import org.apache.kafka.connect.data.SchemaAndValue;
import org.apache.kafka.connect.json.JsonConverter;
import org.apache.kafka.connect.sink.SinkRecord;
import org.apache.kafka.connect.storage.Converter;

/**
 * Records in Avro with Confluent's framing (a magic byte 0, a 4-byte schema id, the Avro body) through a schema
 * registry, read and written by Apicurio's converter as the connectors do (payload.format=avro), and shown to the
 * mutations as the envelope JsonConverter writes for the same Connect data. A changed envelope whose values still fit
 * a schema is written back through the registry (a new schema, such as one with a spoiled column parameter, is
 * registered as a writer of the topic could); one that no longer fits cannot be written.
 */
final class AvroCodec implements RecordCodec {
    private static final int HEADER = 5;
    private final ObjectMapper json = new ObjectMapper();
    private final Converter avroKeys;
    private final Converter avroValues;
    private final JsonConverter jsonKeys = new JsonConverter();
    private final JsonConverter jsonValues = new JsonConverter();

    /** @param format the connector settings of the format ({@code payload.avro.*}) */
    AvroCodec(Map<String, String> format) {
        Map<String, String> settings = AvroPayload.settings(format);
        avroKeys = AvroPayload.converter(settings, true);
        avroValues = AvroPayload.converter(settings, false);
        Map<String, String> withSchemas = Map.of("schemas.enable", "true");
        jsonKeys.configure(withSchemas, true);
        jsonValues.configure(withSchemas, false);
    }

    @Override
    public JsonNode read(String topic, boolean key, byte[] bytes) {
        SchemaAndValue data = (key ? avroKeys : avroValues).toConnectData(topic, bytes);
        try {
            return json.readTree((key ? jsonKeys : jsonValues).fromConnectData(topic, data.schema(), data.value()));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    @Override
    public byte[] write(String topic, boolean key, JsonNode envelope) {
        try {
            SchemaAndValue data = (key ? jsonKeys : jsonValues).toConnectData(topic, json.writeValueAsBytes(envelope));
            return (key ? avroKeys : avroValues).fromConnectData(topic, data.schema(), data.value());
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    @Override
    public List<FramingMutation> framingMutations() {
        return List.of(
                new FramingMutation("a wrong magic byte", (original, all, random) -> {
                    byte[] value = value(original);
                    value[0] = (byte) (1 + random.nextInt(255));
                    return value;
                }),
                new FramingMutation("the schema id of another registered schema", (original, all, random) -> {
                    byte[] other = otherSchema(original, all, random);
                    if (other == null) {
                        return null;
                    }
                    byte[] value = value(original);
                    System.arraycopy(other, 1, value, 1, HEADER - 1);
                    return value;
                }),
                new FramingMutation("a schema id the registry does not have", (original, all, random) -> {
                    byte[] value = value(original);
                    ByteBuffer.wrap(value, 1, HEADER - 1).putInt(1_000_000 + random.nextInt(1_000_000));
                    return value;
                }),
                new FramingMutation("a body another schema's writer wrote, under this id", (original, all, random) -> {
                    byte[] other = otherSchema(original, all, random);
                    if (other == null) {
                        return null;
                    }
                    byte[] value = Arrays.copyOf(value(original), HEADER + other.length - HEADER);
                    System.arraycopy(other, HEADER, value, HEADER, other.length - HEADER);
                    return value;
                }));
    }

    private static byte[] value(SinkRecord record) {
        return ((byte[]) record.value()).clone();
    }

    /** The value of a record chosen by {@code random} whose schema id differs from {@code original}'s. */
    private static byte[] otherSchema(SinkRecord original, List<SinkRecord> all, Random random) {
        byte[] own = (byte[]) original.value();
        List<byte[]> others = all.stream()
                .map(r -> (byte[]) r.value())
                .filter(v -> v != null && v.length > HEADER && own.length > HEADER)
                .filter(v -> !Arrays.equals(v, 1, HEADER, own, 1, HEADER))
                .toList();
        return others.isEmpty() ? null : others.get(random.nextInt(others.size()));
    }
}
