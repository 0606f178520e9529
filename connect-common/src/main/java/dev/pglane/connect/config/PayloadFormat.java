package dev.pglane.connect.config;

import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * How a pglane connector and the Connect worker hand each other a record's key and value (the key
 * {@code payload.format} of both connectors).
 */
public enum PayloadFormat {
    /**
     * As Connect data: the worker's converters turn it into bytes or back on the task thread, one record after the
     * other.
     */
    CONNECT,
    /**
     * As bytes holding JSON with schemas, exactly as pglane's and Kafka's JsonConverter write it: the connector
     * writes or reads them on threads of its own, and the worker's converters must pass them through untouched
     * ({@code ByteArrayConverter}).
     */
    JSON,
    /**
     * As bytes holding Avro with Confluent's framing, written and read through a schema registry by Apicurio's
     * converter ({@link dev.pglane.connect.avro.AvroPayload}) on the connector's threads; the worker's converters pass
     * them through ({@code ByteArrayConverter}).
     */
    AVRO;

    /** The one converter that passes bytes through as they are. */
    public static final String BYTE_ARRAY_CONVERTER = "org.apache.kafka.connect.converters.ByteArrayConverter";

    /**
     * The first of {@code converterKeys} set in {@code props} (a connector's config) to a converter that does not fit
     * this format: one other than {@link #BYTE_ARRAY_CONVERTER} for JSON and AVRO, that one for CONNECT. A key left to
     * the worker's default is not seen here.
     */
    public Optional<Map.Entry<String, String>> misfit(Map<String, String> props, List<String> converterKeys) {
        for (String key : converterKeys) {
            String converter = props.getOrDefault(key, "").trim();
            if (!converter.isEmpty() && converter.equals(BYTE_ARRAY_CONVERTER) != (this != CONNECT)) {
                return Optional.of(Map.entry(key, converter));
            }
        }
        return Optional.empty();
    }
}
