package dev.pglane.sink.decode;

import static org.apache.kafka.common.config.ConfigDef.Importance.HIGH;
import static org.apache.kafka.common.config.ConfigDef.Importance.MEDIUM;
import static org.apache.kafka.common.config.ConfigDef.Type.INT;
import static org.apache.kafka.common.config.ConfigDef.Type.STRING;

import dev.pglane.connect.avro.AvroPayload;
import dev.pglane.connect.config.ConfigGroup;
import dev.pglane.connect.config.EnumChoice;
import dev.pglane.connect.config.PayloadFormat;
import java.util.Map;
import org.apache.kafka.common.config.AbstractConfig;
import org.apache.kafka.common.config.ConfigDef.Range;
import org.apache.kafka.common.config.ConfigDef.Width;

/**
 * The sink's keys that say how records are decoded, defined into the sink's configuration.
 *
 * @param format how keys and values arrive
 * @param threads decode threads; 0 for none, then the task thread decodes
 * @param avro the Avro converter's settings ({@link AvroPayload#settings}), used with {@code payload.format=avro}
 */
public record DecodeSettings(PayloadFormat format, int threads, Map<String, String> avro) {
    public static final String PAYLOAD_FORMAT = "payload.format";
    static final String PAYLOAD_FORMAT_DOC = "How the sink reads records. json: they arrive as bytes (set key.converter"
            + " and value.converter to org.apache.kafka.connect.converters.ByteArrayConverter) holding JSON with"
            + " schemas, as the source writes it with pglane's or Kafka's JsonConverter, and the sink's decode threads"
            + " read them, several at once; a record that is not such JSON goes where any record the sink cannot use"
            + " goes (the dead-letter queue, or the task stops naming it). avro: the same for Avro in Confluent's"
            + " framing, which the decode threads read through the schema registry named by "
            + AvroPayload.REGISTRY_URL + " with Apicurio's converter. connect: the connector's converters turn"
            + " them into Connect data on the task thread, one record after the other (for Avro through a schema"
            + " registry, say).";
    static final String PAYLOAD_FORMAT_DEFAULT = EnumChoice.valueOf(PayloadFormat.CONNECT);
    public static final EnumChoice<PayloadFormat> PAYLOAD_FORMATS = EnumChoice.of(PayloadFormat.class);

    public static final String DECODE_THREADS = "decode.threads";
    static final String DECODE_THREADS_DOC = "Threads that decode the records of a batch, each a share of it, while"
            + " Connect's task thread, the sink's serial stage, waits for them; the assembler then takes them in the"
            + " order Kafka delivered them. A batch of fewer than 64 records is decoded on the task thread. 0: the"
            + " task thread decodes alone.";
    static final int DECODE_THREADS_DEFAULT = 2;

    public static void define(ConfigGroup group) {
        group.key(PAYLOAD_FORMAT, "Payload format", Width.SHORT)
                .define(STRING, PAYLOAD_FORMAT_DEFAULT, PAYLOAD_FORMATS, HIGH, PAYLOAD_FORMAT_DOC);
        group.key(DECODE_THREADS, "Decode threads", Width.SHORT)
                .define(INT, DECODE_THREADS_DEFAULT, Range.between(0, 64), MEDIUM, DECODE_THREADS_DOC);
        AvroPayload.define(group);
    }

    /** The settings of a configuration whose definition {@link #define} went into. */
    public static DecodeSettings of(AbstractConfig config) {
        return new DecodeSettings(
                PAYLOAD_FORMATS.parse(config.getString(PAYLOAD_FORMAT)),
                config.getInt(DECODE_THREADS),
                AvroPayload.settings(config.originalsStrings()));
    }
}
