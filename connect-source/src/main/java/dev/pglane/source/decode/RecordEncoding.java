package dev.pglane.source.decode;

import dev.pglane.connect.config.PayloadFormat;
import dev.pglane.connect.json.PglaneJsonConverter;
import org.apache.kafka.connect.data.Schema;
import org.apache.kafka.connect.data.SchemaAndValue;

/**
 * What a record carries to Connect as its key and value: the Connect data itself, for the worker's converters to
 * write on the task thread, or, with {@code payload.format=json}, the JSON bytes those converters would have
 * written, made here on the decoder lanes, several records at once. Thread-safe: all lanes share one.
 */
public interface RecordEncoding {

    /** The key's or value's schema and value as the record carries them. */
    SchemaAndValue encode(String topic, Schema schema, Object data, boolean isKey);

    static RecordEncoding of(PayloadFormat format) {
        return switch (format) {
            case CONNECT -> (topic, schema, data, isKey) -> new SchemaAndValue(schema, data);
            case JSON -> new JsonBytes();
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
}
