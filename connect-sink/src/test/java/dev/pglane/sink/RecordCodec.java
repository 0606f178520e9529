package dev.pglane.sink;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.List;
import java.util.Random;
import org.apache.kafka.connect.sink.SinkRecord;

/**
 * How the mutation test reads a captured record's key or value as a JSON envelope ({@code schema} and
 * {@code payload}, as JsonConverter writes it) and writes a changed envelope back as the bytes of the format the
 * records were captured in; and the mutations of the raw bytes only that format has.
 */
interface RecordCodec {
    /** The envelope of {@code bytes}, the key of a record of {@code topic} if {@code key}. */
    JsonNode read(String topic, boolean key, byte[] bytes);

    /**
     * The bytes of {@code envelope} as the key or value of a record of {@code topic}; throws a {@link RuntimeException}
     * when the format cannot carry the change (an Avro schema that no longer matches its values).
     */
    byte[] write(String topic, boolean key, JsonNode envelope);

    /** Mutations of the value's bytes that only this format's framing has; none for JSON. */
    default List<FramingMutation> framingMutations() {
        return List.of();
    }

    /**
     * One way to spoil the framing of a value.
     *
     * @param name what it does
     * @param apply the spoiled value of {@code original}, given every record captured; or null when it does not fit
     */
    record FramingMutation(String name, Spoiler apply) {}

    /** A function of the record to spoil, the captured records and a random source. */
    @FunctionalInterface
    interface Spoiler {
        byte[] spoil(SinkRecord original, List<SinkRecord> all, Random random);
    }

    /** The records as JsonConverter writes them with schemas (payload.format=json). */
    RecordCodec JSON = new RecordCodec() {
        private final ObjectMapper json = new ObjectMapper();

        @Override
        public JsonNode read(String topic, boolean key, byte[] bytes) {
            try {
                return json.readTree(bytes);
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        }

        @Override
        public byte[] write(String topic, boolean key, JsonNode envelope) {
            try {
                return json.writeValueAsBytes(envelope);
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        }
    };
}
