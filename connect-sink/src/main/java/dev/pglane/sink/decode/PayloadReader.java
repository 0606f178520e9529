package dev.pglane.sink.decode;

import dev.pglane.connect.avro.AvroPayload;
import dev.pglane.connect.avro.RegistryCall;
import dev.pglane.connect.config.PayloadFormat;
import dev.pglane.connect.json.PglaneJsonConverter;
import java.nio.ByteBuffer;
import java.time.Duration;
import java.util.HashSet;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import org.apache.kafka.connect.errors.ConnectException;
import org.apache.kafka.connect.errors.DataException;
import org.apache.kafka.connect.sink.SinkRecord;
import org.apache.kafka.connect.storage.Converter;

/**
 * A record's key and value as Connect data, however they arrived: as the worker's converters made them, or as
 * bytes the sink converts itself. Not thread-safe: a converter may keep per-instance caches.
 */
public interface PayloadReader {

    /** @throws DataException if the value cannot be read */
    Object value(SinkRecord record);

    /** @throws DataException if the key cannot be read */
    Object key(SinkRecord record);

    /**
     * A new reader of {@code format}.
     *
     * @param avro the Avro converter's settings ({@link AvroPayload#settings}), for {@code AVRO}
     */
    static PayloadReader of(PayloadFormat format, Map<String, String> avro) {
        return switch (format) {
            case CONNECT -> new AsDelivered();
            case JSON -> new JsonBytes();
            case AVRO -> new AvroBytes(avro);
        };
    }

    /**
     * The bytes a record's value arrived as. A value that is not bytes means the connector's value.converter is not
     * ByteArrayConverter: a setting to fix, not a bad record, so the task stops.
     */
    private static byte[] bytes(SinkRecord record, PayloadFormat format) {
        if (record.value() instanceof byte[] bytes) {
            return bytes;
        }
        String name = format.name().toLowerCase(Locale.ROOT);
        throw new ConnectException("payload.format=" + name + " reads the records' bytes, but record " + record.topic()
                + "-" + record.kafkaPartition() + "@" + record.kafkaOffset() + " arrived as "
                + record.value().getClass().getName()
                + ": set value.converter (and key.converter) of the connector to"
                + " org.apache.kafka.connect.converters.ByteArrayConverter, or payload.format=connect");
    }

    /** The worker's converters already did the work. */
    final class AsDelivered implements PayloadReader {
        @Override
        public Object value(SinkRecord record) {
            return record.value();
        }

        @Override
        public Object key(SinkRecord record) {
            return record.key();
        }
    }

    /**
     * JSON with schemas, read by pglane's JsonConverter (Kafka's, faster), with the wire's own structs as
     * {@link dev.pglane.wire.FieldValues} ({@link WireBlocks}). A key may arrive converted already (its converter was
     * left as it was); only its xid is ever read.
     */
    final class JsonBytes implements PayloadReader {
        private final PglaneJsonConverter values = PglaneJsonConverter.withSchemas(false);
        private final Converter keys = PglaneJsonConverter.withSchemas(true);

        @Override
        public Object value(SinkRecord record) {
            if (record.value() == null) {
                return null;
            }
            byte[] bytes = bytes(record, PayloadFormat.JSON);
            return values.toValue(record.topic(), bytes, WireBlocks.INSTANCE);
        }

        @Override
        public Object key(SinkRecord record) {
            return record.key() instanceof byte[] bytes
                    ? keys.toConnectData(record.topic(), bytes).value()
                    : record.key();
        }
    }

    /**
     * Avro with Confluent's framing, read through the schema registry by Apicurio's converter, as Connect structs. A
     * registry that cannot be reached fails the batch as retriable, so Connect delivers it again ({@link
     * AvroPayload#failure}); so does one that does not answer: a record whose schema id a converter has not met yet
     * (the only kind that makes it ask the registry) is read within {@link RegistryCall}'s time limit.
     */
    final class AvroBytes implements PayloadReader {
        /** Schema ids remembered as met, per converter; more than any pipeline's schemas. */
        static final int MAX_KNOWN_IDS = 4096;

        private final Converter values;
        private final Converter keys;
        private final Set<Integer> valueIds = new HashSet<>();
        private final Set<Integer> keyIds = new HashSet<>();
        private final String registryUrl;
        private final Duration registryTimeout;

        AvroBytes(Map<String, String> settings) {
            this(settings, RegistryCall.TIMEOUT);
        }

        AvroBytes(Map<String, String> settings, Duration registryTimeout) {
            this.values = AvroPayload.converter(settings, false);
            this.keys = AvroPayload.converter(settings, true);
            this.registryUrl = settings.get(AvroPayload.URL_SETTING);
            this.registryTimeout = registryTimeout;
        }

        @Override
        public Object value(SinkRecord record) {
            if (record.value() == null) {
                return null;
            }
            byte[] bytes = bytes(record, PayloadFormat.AVRO);
            try {
                return read(values, valueIds, record, bytes, "record ");
            } catch (RuntimeException e) {
                throw AvroPayload.failure(e, describe(record, "record "));
            }
        }

        @Override
        public Object key(SinkRecord record) {
            return record.key() instanceof byte[] bytes
                    ? read(keys, keyIds, record, bytes, "the key of record ")
                    : record.key();
        }

        private Object read(Converter converter, Set<Integer> knownIds, SinkRecord record, byte[] bytes, String what) {
            Integer id = bytes.length >= 5 && bytes[0] == 0
                    ? ByteBuffer.wrap(bytes, 1, 4).getInt()
                    : null;
            if (id != null && knownIds.contains(id)) {
                return converter.toConnectData(record.topic(), bytes).value();
            }
            Object value = RegistryCall.within(
                    registryTimeout,
                    registryUrl,
                    describe(record, what),
                    () -> converter.toConnectData(record.topic(), bytes).value());
            if (id != null) {
                if (knownIds.size() >= MAX_KNOWN_IDS) {
                    knownIds.clear(); // ids come from record bytes: a forgotten one costs a time-bounded call
                }
                knownIds.add(id);
            }
            return value;
        }

        private static String describe(SinkRecord record, String what) {
            return what + record.topic() + "-" + record.kafkaPartition() + "@" + record.kafkaOffset();
        }
    }
}
