package dev.pglane.connect.json;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.HashMap;
import java.util.Map;
import java.util.concurrent.atomic.AtomicLong;
import org.apache.kafka.common.config.ConfigDef;
import org.apache.kafka.connect.data.Schema;
import org.apache.kafka.connect.data.SchemaAndValue;
import org.apache.kafka.connect.errors.DataException;
import org.apache.kafka.connect.json.DecimalFormat;
import org.apache.kafka.connect.json.JsonConverter;
import org.apache.kafka.connect.json.JsonConverterConfig;
import org.apache.kafka.connect.storage.Converter;

/**
 * Kafka's JsonConverter, faster: the same bytes on the wire, the same Connect values back, the same
 * settings. Records of a schema already seen are written and read with the schema's text reused
 * ({@link SchemaTexts}) and the payload streamed, with no tree of JSON nodes in between; that is most
 * of what JsonConverter spends per record on the envelopes of a change stream, whose schemas are far
 * larger than their payloads. Set it as {@code key.converter} and {@code value.converter} of either
 * pglane connector (or any other); consumers that use JsonConverter, or read JSON any other way, see
 * no difference.
 *
 * <p>The fast path needs {@code schemas.enable=true} (the default), {@code decimal.format=BASE64} (the
 * default), {@code replace.null.with.default=true} (the default) and no {@code schema.content}. With
 * other settings, and for any record it does not read exactly as JsonConverter would (fields in
 * another order, a string where a number belongs, a schema-less value, ...), it hands the work to
 * JsonConverter itself, errors included.
 */
public final class PglaneJsonConverter implements Converter {
    private static final byte[] SCHEMA_FIELD = "{\"schema\":".getBytes(StandardCharsets.UTF_8);
    private static final byte[] PAYLOAD_FIELD = ",\"payload\":".getBytes(StandardCharsets.UTF_8);

    private final JsonConverter jsonConverter = new JsonConverter();
    private final JsonFactory factory = new JsonFactory();
    /** Per thread: Connect gives every task its own converter, but nothing forbids sharing one. */
    private final ThreadLocal<PayloadBuffer> payloads = new ThreadLocal<>();

    private SchemaTexts schemas;
    private boolean fast;
    /** Records the fast path handed to JsonConverter: for tests, which must see the fast path taken. */
    private final AtomicLong handedOver = new AtomicLong();

    /**
     * A converter of keys or values in JsonConverter's format with schemas, its defaults otherwise: how pglane writes
     * and reads the records' bytes itself ({@code payload.format=json}).
     */
    public static PglaneJsonConverter withSchemas(boolean isKey) {
        PglaneJsonConverter converter = new PglaneJsonConverter();
        converter.configure(Map.of("schemas.enable", "true"), isKey);
        return converter;
    }

    @Override
    public ConfigDef config() {
        return jsonConverter.config();
    }

    @Override
    public void configure(Map<String, ?> configs, boolean isKey) {
        jsonConverter.configure(configs, isKey);
        JsonConverterConfig config = new JsonConverterConfig(withType(configs, isKey));
        fast = config.schemasEnabled()
                && config.decimalFormat() == DecimalFormat.BASE64
                && config.replaceNullWithDefault()
                && config.schemaContent() == null;
        schemas = new SchemaTexts(jsonConverter, config.schemaCacheSize());
    }

    private static Map<String, Object> withType(Map<String, ?> configs, boolean isKey) {
        Map<String, Object> typed = new HashMap<>(configs);
        typed.put(JsonConverterConfig.TYPE_CONFIG, isKey ? "key" : "value");
        return typed;
    }

    @Override
    public byte[] fromConnectData(String topic, Schema schema, Object value) {
        if (!fast || schema == null) {
            return jsonConverter.fromConnectData(topic, schema, value);
        }
        try {
            byte[] schemaText = schemas.textOf(schema);
            PayloadBuffer payload = payload(schema, value);
            byte[] record =
                    new byte[SCHEMA_FIELD.length + schemaText.length + PAYLOAD_FIELD.length + payload.size() + 1];
            System.arraycopy(SCHEMA_FIELD, 0, record, 0, SCHEMA_FIELD.length);
            System.arraycopy(schemaText, 0, record, SCHEMA_FIELD.length, schemaText.length);
            int payloadAt = SCHEMA_FIELD.length + schemaText.length;
            System.arraycopy(PAYLOAD_FIELD, 0, record, payloadAt, PAYLOAD_FIELD.length);
            payload.copyTo(record, payloadAt + PAYLOAD_FIELD.length);
            record[record.length - 1] = '}';
            if (!payload.worthKeeping()) {
                payloads.remove();
            }
            return record;
        } catch (NotFastPath | ClassCastException e) {
            handedOver.incrementAndGet();
            return jsonConverter.fromConnectData(topic, schema, value);
        } catch (IOException e) {
            throw new DataException("Converting Kafka Connect data to byte[] failed due to serialization error: ", e);
        }
    }

    /** Writes the payload into this thread's buffer, which is dropped if the write fails half-way. */
    private PayloadBuffer payload(Schema schema, Object value) throws IOException {
        PayloadBuffer payload = payloads.get();
        if (payload == null) {
            payload = new PayloadBuffer(factory);
            payloads.set(payload);
        }
        try {
            payload.write(schema, value);
            return payload;
        } catch (IOException | RuntimeException e) {
            payloads.remove();
            throw e;
        }
    }

    @Override
    public SchemaAndValue toConnectData(String topic, byte[] value) {
        return toConnectData(topic, value, PlainStructs.NONE, false);
    }

    /**
     * The value {@link #toConnectData} reads from {@code value}, with the structs {@code plain} takes made by it. A
     * record off the fast path (see the class comment) comes as JsonConverter reads it, with Structs throughout; but a
     * value whose JSON type its schema cannot hold is an error here, not the 0, false or null JsonConverter makes of
     * it: a sink must not write a row its record does not carry.
     *
     * @throws DataException for such a value, or any JsonConverter refuses
     */
    public Object toValue(String topic, byte[] value, PlainStructs plain) {
        return toConnectData(topic, value, plain, true).value();
    }

    private SchemaAndValue toConnectData(String topic, byte[] value, PlainStructs plain, boolean strict) {
        if (!fast || value == null) {
            return jsonConverter.toConnectData(topic, value);
        }
        try {
            SchemaAndValue read = readEnvelope(value, plain);
            if (read != null) {
                return read;
            }
        } catch (NotFastPath e) {
            if (strict && e.wrongType()) {
                throw new DataException("The record's payload does not fit its schema: " + e.getMessage());
            }
            // JsonConverter reads it its own way, or names what is wrong with it
        } catch (IOException e) {
            // JsonConverter names what is wrong with it
        }
        handedOver.incrementAndGet();
        return jsonConverter.toConnectData(topic, value);
    }

    long handedOver() {
        return handedOver.get();
    }

    /**
     * Reads {"schema": {…}, "payload": …} as JsonConverter writes it. The schema of a recent record is
     * recognized by its bytes without parsing them; only the payload is parsed.
     *
     * @return the envelope's schema and value, or {@code null} if the record has another shape
     */
    private SchemaAndValue readEnvelope(byte[] bytes, PlainStructs plain) throws IOException {
        if (!startsWith(bytes, SCHEMA_FIELD) || bytes[bytes.length - 1] != '}') {
            return null;
        }
        SchemaTexts.Recognized schema = schemas.recognize(bytes, SCHEMA_FIELD.length, PAYLOAD_FIELD);
        if (schema == null) {
            schema = findSchema(bytes);
            if (schema == null) {
                return null;
            }
        }
        int payloadStart = schema.end() + PAYLOAD_FIELD.length;
        try (JsonParser in = factory.createParser(bytes, payloadStart, bytes.length - 1 - payloadStart)) {
            in.nextToken();
            Object payload = JsonPayloadReader.read(in, schema.schema(), plain);
            return in.nextToken() == null ? new SchemaAndValue(schema.schema(), payload) : null;
        }
    }

    /** Parses past the schema object to find where it ends, for a schema not among the recent ones. */
    private SchemaTexts.Recognized findSchema(byte[] bytes) throws IOException {
        int start = SCHEMA_FIELD.length;
        try (JsonParser in = factory.createParser(bytes, start, bytes.length - start)) {
            if (in.nextToken() != JsonToken.START_OBJECT) {
                return null;
            }
            in.skipChildren();
            int end = start + (int) in.currentTokenLocation().getByteOffset() + 1;
            if (end + PAYLOAD_FIELD.length > bytes.length
                    || !Arrays.equals(PAYLOAD_FIELD, 0, PAYLOAD_FIELD.length, bytes, end, end + PAYLOAD_FIELD.length)) {
                return null;
            }
            return new SchemaTexts.Recognized(schemas.schemaOf(bytes, start, end), end);
        }
    }

    private static boolean startsWith(byte[] bytes, byte[] prefix) {
        return bytes.length > prefix.length && Arrays.equals(prefix, 0, prefix.length, bytes, 0, prefix.length);
    }
}
