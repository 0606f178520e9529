package dev.pglane.local.kafka;

import java.util.HashMap;
import java.util.Map;
import org.apache.kafka.connect.json.JsonConverter;
import org.apache.kafka.connect.storage.Converter;

/**
 * How a pglane source's records are written on its topics, so that a plain consumer reads them back as the
 * connector's converters wrote them: JSON with schemas (whatever wrote it: Kafka's or pglane's JsonConverter, or the
 * source's decoder lanes), or Avro through a schema registry with Confluent's framing (Apicurio's converter, as the
 * example config sets it).
 *
 * @param registryUrl the registry's Apicurio v2 API for Avro, {@code null} for JSON
 */
public record TopicFormat(String registryUrl) {
    public static final TopicFormat JSON = new TopicFormat(null);

    /** The Apicurio converter, as {@code config-examples/*-avro.json} configure it. */
    public static final String AVRO_CONVERTER = "io.apicurio.registry.utils.converter.AvroConverter";

    public static TopicFormat avro(String registryUrl) {
        return new TopicFormat(registryUrl);
    }

    /**
     * The format a source connector with {@code config} writes: Avro when its value converter is Apicurio's, or when
     * its decoder lanes write Avro ({@code payload.format=avro}); JSON otherwise.
     */
    public static TopicFormat of(Map<String, String> config) {
        if (AVRO_CONVERTER.equals(config.get("value.converter"))) {
            return avro(config.get("value.converter.apicurio.registry.url"));
        }
        if ("avro".equals(config.get("payload.format"))) {
            return avro(config.get("payload.avro.apicurio.registry.url"));
        }
        return JSON;
    }

    /** The settings of the Avro converter for Confluent's framing: a magic byte and the 4-byte content id. */
    public static Map<String, String> avroSettings(String registryUrl) {
        return Map.of(
                "apicurio.registry.url", registryUrl,
                "apicurio.registry.auto-register", "true",
                "apicurio.registry.as-confluent", "true",
                "apicurio.registry.use-id", "contentId",
                "apicurio.registry.headers.enabled", "false");
    }

    /**
     * The settings that make a connector, source or sink, write or read Avro in its own threads through the
     * registry at {@code registryUrl} ({@code payload.format=avro}), the worker passing the bytes through.
     */
    public static Map<String, String> avroInLanes(String registryUrl) {
        return Map.of(
                "payload.format", "avro",
                "payload.avro.apicurio.registry.url", registryUrl,
                "key.converter", "org.apache.kafka.connect.converters.ByteArrayConverter",
                "value.converter", "org.apache.kafka.connect.converters.ByteArrayConverter");
    }

    /** A new converter of this format for keys ({@code isKey}) or values. */
    public Converter converter(boolean isKey) {
        Converter converter;
        Map<String, String> settings = new HashMap<>();
        if (registryUrl == null) {
            converter = new JsonConverter();
            settings.put("schemas.enable", "true");
        } else {
            converter = new io.apicurio.registry.utils.converter.AvroConverter<>();
            settings.putAll(avroSettings(registryUrl));
        }
        converter.configure(settings, isKey);
        return converter;
    }
}
