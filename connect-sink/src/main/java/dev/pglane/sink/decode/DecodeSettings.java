package dev.pglane.sink.decode;

import static org.apache.kafka.common.config.ConfigDef.Importance.HIGH;
import static org.apache.kafka.common.config.ConfigDef.Importance.LOW;
import static org.apache.kafka.common.config.ConfigDef.Importance.MEDIUM;
import static org.apache.kafka.common.config.ConfigDef.Type.INT;
import static org.apache.kafka.common.config.ConfigDef.Type.STRING;

import dev.pglane.connect.avro.AvroPayload;
import dev.pglane.connect.config.ConfigGroup;
import dev.pglane.connect.config.EnumChoice;
import dev.pglane.connect.config.PayloadFormat;
import dev.pglane.wire.debezium.DebeziumChanges;
import java.util.Map;
import org.apache.kafka.common.config.AbstractConfig;
import org.apache.kafka.common.config.ConfigDef;
import org.apache.kafka.common.config.ConfigDef.Range;
import org.apache.kafka.common.config.ConfigDef.Width;

/**
 * The sink's keys that say how records are decoded, defined into the sink's configuration.
 *
 * @param format how keys and values arrive
 * @param threads decode threads; 0 for none, then the task thread decodes
 * @param avro the Avro converter's settings ({@link AvroPayload#settings}), used with {@code payload.format=avro}
 * @param source which connector wrote the topics
 * @param unavailablePlaceholder with {@link SourceFormat#DEBEZIUM}, the value that stands for an unchanged TOAST value
 */
public record DecodeSettings(
        PayloadFormat format,
        int threads,
        Map<String, String> avro,
        SourceFormat source,
        String unavailablePlaceholder) {
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

    public static final String SOURCE_FORMAT = "source.format";
    static final String SOURCE_FORMAT_DOC = "Which connector wrote the topics. pglane: pglane's source. debezium:"
            + " Debezium's PostgreSQL connector with provide.transaction.metadata=true and its default topic naming"
            + " under source.topic.prefix (its topic.prefix): its transaction metadata topic <prefix>.transaction"
            + " takes the place of pglane's markers, so the sink applies whole transactions in commit order, several"
            + " at once, and exactly once, as it does pglane's. Debezium's snapshot rows belong to no transaction and"
            + " are refused (start Debezium with snapshot.mode=no_data).";
    static final String SOURCE_FORMAT_DEFAULT = EnumChoice.valueOf(SourceFormat.PGLANE);
    public static final EnumChoice<SourceFormat> SOURCE_FORMATS = EnumChoice.of(SourceFormat.class);

    public static final String UNAVAILABLE_VALUE_PLACEHOLDER = "unavailable.value.placeholder";
    static final String UNAVAILABLE_VALUE_PLACEHOLDER_DOC = "With source.format=debezium: the source connector's"
            + " unavailable.value.placeholder, which Debezium writes in place of an unchanged TOAST value; a column"
            + " holding it keeps its value in the target.";

    public static void define(ConfigGroup group) {
        group.key(SOURCE_FORMAT, "Source format", Width.SHORT)
                .define(STRING, SOURCE_FORMAT_DEFAULT, SOURCE_FORMATS, HIGH, SOURCE_FORMAT_DOC);
        group.key(UNAVAILABLE_VALUE_PLACEHOLDER, "Unavailable value placeholder", Width.MEDIUM)
                .define(
                        STRING,
                        DebeziumChanges.DEFAULT_PLACEHOLDER,
                        new ConfigDef.NonEmptyString(),
                        LOW,
                        UNAVAILABLE_VALUE_PLACEHOLDER_DOC);
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
                AvroPayload.settings(config.originalsStrings()),
                SOURCE_FORMATS.parse(config.getString(SOURCE_FORMAT)),
                config.getString(UNAVAILABLE_VALUE_PLACEHOLDER));
    }
}
