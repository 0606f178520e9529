package dev.pglane.source.decode;

import dev.pglane.connect.avro.AvroPayload;
import dev.pglane.connect.avro.AvroWriter;
import dev.pglane.connect.avro.SchemaIds;
import dev.pglane.connect.config.PayloadFormat;
import dev.pglane.connect.json.PglaneJsonConverter;
import dev.pglane.wire.StructBuilder;
import java.util.Map;
import org.apache.kafka.connect.data.Schema;
import org.apache.kafka.connect.data.SchemaAndValue;
import org.apache.kafka.connect.errors.ConnectException;
import org.apache.kafka.connect.errors.RetriableException;

/**
 * What a record carries to Connect as its key and value: the Connect data itself, for the worker's converters to
 * write on the task thread, or, with {@code payload.format=json} or {@code avro}, the bytes those converters would
 * have written, made here on the decoder lanes, several records at once. Thread-safe: all lanes share one.
 */
public interface RecordEncoding {

    /** The key's or value's schema and value as the record carries them. */
    SchemaAndValue encode(String topic, Schema schema, Object data, boolean isKey);

    /** The structs {@link #encode} takes for envelopes and markers: Connect's, unless it writes them itself. */
    default StructBuilder.Kind structs() {
        return StructBuilder.Kind.STRUCT;
    }

    /** @param avro the Avro converter's settings ({@link AvroPayload#settings}), for {@code AVRO} */
    static RecordEncoding of(PayloadFormat format, Map<String, String> avro) {
        return switch (format) {
            case CONNECT -> (topic, schema, data, isKey) -> new SchemaAndValue(schema, data);
            case JSON -> new JsonBytes();
            case AVRO -> new AvroBytes(avro);
        };
    }

    /**
     * JSON with schemas, written by pglane's JsonConverter exactly as the worker's would write it, passed through by
     * {@code ByteArrayConverter}. Every lane has converters of its own: one shared converter's schema cache is a lock
     * that the lanes, all writing at once, would contend for on every record.
     */
    final class JsonBytes implements RecordEncoding {
        private final ThreadLocal<PglaneJsonConverter> keys =
                ThreadLocal.withInitial(() -> PglaneJsonConverter.withSchemas(true));
        private final ThreadLocal<PglaneJsonConverter> values =
                ThreadLocal.withInitial(() -> PglaneJsonConverter.withSchemas(false));

        @Override
        public SchemaAndValue encode(String topic, Schema schema, Object data, boolean isKey) {
            byte[] bytes = (isKey ? keys : values).get().fromConnectData(topic, schema, data);
            return new SchemaAndValue(Schema.OPTIONAL_BYTES_SCHEMA, bytes);
        }
    }

    /**
     * Avro with Confluent's framing, as Apicurio's converter writes it through the schema registry ({@link
     * AvroWriter}: the converter registers each schema, the writer writes the records), passed through by {@code
     * ByteArrayConverter}. Every lane has writers of its own; they share the ids of the schemas registered
     * ({@link SchemaIds}), so each schema is registered once, by the first lane that meets it.
     * A registry that cannot be reached, after a few attempts, ends the session as retriable: the task reconnects and
     * sends the unconfirmed transactions again.
     */
    final class AvroBytes implements RecordEncoding {
        /** Lanes registering a new schema at once may collide; asked again, the registry has it. */
        private static final int ATTEMPTS = 3;

        private final ThreadLocal<AvroWriter> keys;
        private final ThreadLocal<AvroWriter> values;

        AvroBytes(Map<String, String> settings) {
            SchemaIds keyIds = new SchemaIds();
            SchemaIds valueIds = new SchemaIds();
            this.keys = ThreadLocal.withInitial(
                    () -> new AvroWriter(AvroPayload.converter(settings, true), settings, keyIds));
            this.values = ThreadLocal.withInitial(
                    () -> new AvroWriter(AvroPayload.converter(settings, false), settings, valueIds));
        }

        /** The writer reads FieldValues, which spare the lanes Struct's checks of every value. */
        @Override
        public StructBuilder.Kind structs() {
            return StructBuilder.Kind.FIELD_VALUES;
        }

        @Override
        public SchemaAndValue encode(String topic, Schema schema, Object data, boolean isKey) {
            for (int attempt = 1; ; attempt++) {
                try {
                    byte[] bytes = (isKey ? keys : values).get().write(topic, schema, data);
                    return new SchemaAndValue(Schema.OPTIONAL_BYTES_SCHEMA, bytes);
                } catch (RuntimeException e) {
                    ConnectException failure =
                            AvroPayload.failure(e, "a " + (isKey ? "key" : "value") + " of topic " + topic);
                    if (!(failure instanceof RetriableException) || attempt == ATTEMPTS) {
                        throw failure;
                    }
                }
            }
        }
    }
}
