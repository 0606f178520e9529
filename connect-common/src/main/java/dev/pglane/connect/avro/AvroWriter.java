package dev.pglane.connect.avro;

import dev.pglane.wire.FieldValues;
import io.apicurio.registry.utils.converter.avro.AvroData;
import io.apicurio.registry.utils.converter.avro.AvroDataConfig;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.time.Duration;
import java.util.HashMap;
import java.util.IdentityHashMap;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import org.apache.avro.generic.GenericDatumWriter;
import org.apache.avro.io.BinaryEncoder;
import org.apache.avro.io.EncoderFactory;
import org.apache.kafka.connect.data.Schema;
import org.apache.kafka.connect.storage.Converter;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Writes Connect data as Apicurio's converter does (Confluent's framing: a zero byte, the schema's 4-byte id, the
 * Avro binary), without the converter's cost per record: to find a schema's id, the converter's serializer turns
 * the Avro schema into its JSON text and hashes it, for every record, which costs more than writing the record.
 * Here the converter writes only the first record of each Connect schema on each topic, which registers the schema
 * and tells its id (bytes 1 to 4); later records of that schema are written with the Avro schema the converter's
 * own {@link AvroData} derives, under that id, by a {@link ConnectAvroEncoder} compiled for the schema. Connect schemas are told apart by identity: pglane builds one per
 * table version and reuses it. Not thread-safe: one per thread.
 */
public final class AvroWriter {
    private static final Logger LOG = LoggerFactory.getLogger(AvroWriter.class);
    private static final byte MAGIC = 0;

    private final Converter converter;
    private final AvroData avroData;
    private final Map<Schema, Map<String, Registered>> registered = new IdentityHashMap<>();
    private final ByteArrayOutputStream out = new ByteArrayOutputStream(1024);
    private final String registryUrl;
    private final Duration registryTimeout;
    private final SchemaIds shared;
    private BinaryEncoder encoder;

    private record Registered(int id, ConnectAvroEncoder encoder) {}

    /**
     * @param converter Apicurio's converter, configured with {@code settings}: it registers the schemas
     * @param settings the converter's settings, for the {@link AvroData} it derives Avro schemas with
     * @param shared the ids registered by the other writers of the same kind (keys or values) and settings, which
     *     this writer registers a schema for only when none of them has
     */
    public AvroWriter(Converter converter, Map<String, String> settings, SchemaIds shared) {
        this(converter, settings, shared, RegistryCall.TIMEOUT);
    }

    /** @param registryTimeout how long the converter may take to register a schema ({@link RegistryCall}) */
    AvroWriter(Converter converter, Map<String, String> settings, SchemaIds shared, Duration registryTimeout) {
        this.converter = converter;
        this.avroData = new AvroData(new AvroDataConfig(settings));
        this.registryUrl = settings.get(AvroPayload.URL_SETTING);
        this.shared = shared;
        this.registryTimeout = registryTimeout;
    }

    /**
     * The record's bytes; {@code null} for a null value (a tombstone's, or a record without a key).
     *
     * @param value Connect data, in which a struct may be {@link FieldValues}
     */
    public byte[] write(String topic, Schema schema, Object value) {
        if (value == null) {
            return null;
        }
        Registered known =
                registered.computeIfAbsent(schema, s -> new HashMap<>()).get(topic);
        if (known == null) {
            String what = "the first record of schema " + schema.name() + " on topic " + topic;
            CompletableFuture<Integer> registering = shared.claim(schema, topic);
            if (registering == null) {
                return register(topic, schema, value, what);
            }
            known = new Registered(SchemaIds.await(registering, registryTimeout, registryUrl, what), encoder(schema));
            registered.get(schema).put(topic, known);
        }
        out.reset();
        out.write(MAGIC);
        out.write(known.id() >>> 24);
        out.write(known.id() >>> 16);
        out.write(known.id() >>> 8);
        out.write(known.id());
        // buffered: the direct encoder hands ByteArrayOutputStream each varint byte by a synchronized write(int)
        encoder = EncoderFactory.get().binaryEncoder(out, encoder);
        try {
            known.encoder().write(value, encoder);
            encoder.flush();
        } catch (IOException e) {
            throw new UncheckedIOException("cannot write Avro to memory", e);
        }
        return out.toByteArray();
    }

    /** Writes the first record of {@code schema} on {@code topic} through the converter, which registers it. */
    private byte[] register(String topic, Schema schema, Object value, String what) {
        byte[] first;
        try {
            first = RegistryCall.within(
                    registryTimeout,
                    registryUrl,
                    what,
                    () -> converter.fromConnectData(topic, schema, connectData(value)));
        } catch (RuntimeException e) {
            shared.failed(schema, topic, e);
            throw e;
        }
        int id = ByteBuffer.wrap(first, 1, 4).getInt();
        registered.get(schema).put(topic, new Registered(id, encoder(schema)));
        shared.registered(schema, topic, id);
        return first;
    }

    /**
     * The encoder compiled for the schema, or, for a shape it does not know, one that writes through {@link AvroData}
     * and Avro's generic writer: the same bytes, at the cost of a tree of Avro records per value.
     */
    private ConnectAvroEncoder encoder(Schema schema) {
        org.apache.avro.Schema avro = avroData.fromConnectSchema(schema);
        try {
            return ConnectAvroEncoder.compile(schema, avro);
        } catch (ConnectAvroEncoder.Unsupported e) {
            LOG.info("Avro records of schema {} are written through AvroData: {}", schema.name(), e.getMessage());
            GenericDatumWriter<Object> writer = new GenericDatumWriter<>(avro);
            return (value, out) -> writer.write(avroData.fromConnectData(schema, connectData(value)), out);
        }
    }

    /** {@code value} as the converter and {@link AvroData} read it: {@link FieldValues} as a Struct. */
    private static Object connectData(Object value) {
        return value instanceof FieldValues values ? values.toStruct() : value;
    }
}
