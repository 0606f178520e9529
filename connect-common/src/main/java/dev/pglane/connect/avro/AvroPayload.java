package dev.pglane.connect.avro;

import static org.apache.kafka.common.config.ConfigDef.Importance.MEDIUM;
import static org.apache.kafka.common.config.ConfigDef.Type.STRING;

import dev.pglane.connect.config.ConfigGroup;
import io.apicurio.registry.rest.client.exception.RestClientException;
import io.apicurio.registry.serde.avro.AvroKafkaSerdeConfig;
import io.apicurio.registry.utils.converter.AvroConverter;
import java.io.IOException;
import java.util.HashMap;
import java.util.Map;
import org.apache.kafka.common.config.ConfigDef.Width;
import org.apache.kafka.connect.errors.ConnectException;
import org.apache.kafka.connect.errors.DataException;
import org.apache.kafka.connect.errors.RetriableException;
import org.apache.kafka.connect.storage.Converter;

/**
 * The Avro converter a connector runs on threads of its own for {@code payload.format=avro}: Apicurio's, the one both
 * plugins ship, writing and reading Confluent's framing (a magic byte and the 4-byte content id) through a schema
 * registry. It is configured from the connector's {@code payload.avro.*} keys, the prefix stripped: {@link
 * #REGISTRY_URL} and any other setting of Apicurio's converter, over the defaults the Avro examples use.
 */
public final class AvroPayload {
    public static final String PREFIX = "payload.avro.";
    /** The converter's own key for the registry's URL. */
    public static final String URL_SETTING = "apicurio.registry.url";

    public static final String REGISTRY_URL = PREFIX + URL_SETTING;
    static final String REGISTRY_URL_DOC = "With payload.format=avro: the schema registry's Apicurio API, e.g."
            + " http://registry:8080/apis/registry/v2. Every other payload.avro.<key> is handed to Apicurio's Avro"
            + " converter as <key>; by default it auto-registers schemas and writes Confluent's framing (as-confluent=true,"
            + " use-id=contentId, headers.enabled=false), as the Avro example configs do for the worker's converters."
            + " A request to the registry that gets no answer within 30 s fails as retriable (Apicurio's client sets no"
            + " time limit of its own).";

    /** Confluent's framing, schemas registered as they come: what the Avro example configs set. */
    private static final Map<String, String> DEFAULTS = Map.of(
            "apicurio.registry.auto-register", "true",
            "apicurio.registry.as-confluent", "true",
            "apicurio.registry.use-id", "contentId",
            "apicurio.registry.headers.enabled", "false");

    private AvroPayload() {}

    public static void define(ConfigGroup group) {
        group.key(REGISTRY_URL, "Avro registry URL", Width.LONG).define(STRING, "", null, MEDIUM, REGISTRY_URL_DOC);
    }

    /** The converter's settings in a connector's configuration: its {@code payload.avro.*} keys over the defaults. */
    public static Map<String, String> settings(Map<String, String> connectorProps) {
        Map<String, String> settings = new HashMap<>(DEFAULTS);
        connectorProps.forEach((key, value) -> {
            if (key.startsWith(PREFIX)) {
                settings.put(key.substring(PREFIX.length()), value);
            }
        });
        return settings;
    }

    /**
     * What a failure of the converter on one record means. A registry that cannot be reached (no answer, or a 5xx),
     * or that refused a registration because the same schema was being registered at the same moment (409), is
     * something to wait out: a {@link RetriableException}, on which the sink has the batch delivered again and the
     * source reconnects. Anything else is about the record, say an id the registry does not know, or bytes that are
     * not Avro: a {@link DataException}, which the sink reports as an undecodable record and the source fails on.
     *
     * @param what the record, e.g. {@code "record t-0@41"}
     */
    public static ConnectException failure(RuntimeException e, String what) {
        if (e instanceof RetriableException retriable) {
            return retriable; // a registry that did not answer in time (RegistryCall)
        }
        if (unreachable(e)) {
            return new RetriableException("The schema registry could not be reached for " + what + ": " + e, e);
        }
        return e instanceof DataException data
                ? data
                : new DataException(what + " is not Avro the registry knows: " + e, e);
    }

    /**
     * Apicurio's client reports a failed request as an error without a code, an HTTP error with its status, or an
     * I/O error. An I/O error that Avro's decoder raised (an {@code EOFException} of a body cut short) is the record's,
     * not the network's: waited out, one short record would hold the task for ever.
     */
    private static boolean unreachable(Throwable e) {
        for (Throwable t = e; t != null; t = t.getCause()) {
            if (t instanceof IOException) {
                return !raisedByAvro(t);
            }
            if (t instanceof RestClientException rest) {
                Integer code = rest.getError() == null ? null : rest.getError().getErrorCode();
                // 409: another thread or task registered the same schema at the same moment; asked again, it is there
                return code == null || code == 0 || code == 409 || code >= 500;
            }
        }
        return false;
    }

    private static boolean raisedByAvro(Throwable t) {
        for (StackTraceElement frame : t.getStackTrace()) {
            if (frame.getClassName().startsWith("org.apache.avro.")) {
                return true;
            }
        }
        return false;
    }

    /**
     * A new converter for keys ({@code isKey}) or values; each thread needs its own (a schema cache per instance). Its
     * deserializer reads with {@link ReusedDatumReaders} unless the settings name another datum provider.
     */
    public static Converter converter(Map<String, String> settings, boolean isKey) {
        Map<String, Object> config = new HashMap<>(settings);
        config.putIfAbsent(AvroKafkaSerdeConfig.AVRO_DATUM_PROVIDER, ReusedDatumReaders.class);
        AvroConverter<Object> converter = new AvroConverter<>();
        converter.configure(config, isKey);
        return converter;
    }
}
