package dev.pglane.sink.validate;

import static dev.pglane.sink.PgSinkConfig.SOURCE_TOPIC_PREFIX;
import static dev.pglane.sink.PgSinkConfig.SOURCE_TOPIC_SINGLE_NAME;
import static dev.pglane.sink.PgSinkConfig.TABLE_INCLUDE_LIST;
import static dev.pglane.sink.PgSinkConfig.TABLE_NAME_FORMAT;
import static dev.pglane.sink.decode.DecodeSettings.PAYLOAD_FORMAT;

import dev.pglane.connect.avro.AvroPayload;
import dev.pglane.connect.config.PayloadFormat;
import dev.pglane.connect.validate.ConfigProblem;
import dev.pglane.connect.validate.ValidationReport;
import dev.pglane.sink.admit.RecordAdmission;
import dev.pglane.sink.admit.TableNameAmbiguity;
import dev.pglane.sink.decode.DecodeSettings;
import dev.pglane.sink.decode.SourceFormat;
import dev.pglane.sink.target.TableMapping;
import dev.pglane.sink.target.TableName;
import dev.pglane.wire.TopicNames;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.regex.Pattern;
import java.util.regex.PatternSyntaxException;

/**
 * The rules between keys of the sink config, including Connect's own {@code topics} and {@code
 * topics.regex}: they must deliver the source's marker topic, without which no transaction ever
 * completes. Connect itself reports a missing or malformed subscription.
 */
final class SinkConfigRules {
    static final String TOPICS = "topics";
    static final String TOPICS_REGEX = "topics.regex";
    static final String VALUE_CONVERTER = "value.converter";

    private SinkConfigRules() {}

    static void check(ValidationReport report, Map<String, String> props) {
        checkTables(report);
        checkPayloadFormat(report, props);
        if (!report.isValid(SOURCE_TOPIC_PREFIX)) {
            return;
        }
        SourceFormat format = sourceFormat(report);
        TopicNames perTable = sourceTopics(report);
        String marker = perTable.transactionsTopic();
        String topics = props.getOrDefault(TOPICS, "").trim();
        String regex = props.getOrDefault(TOPICS_REGEX, "").trim();
        if (!topics.isEmpty()
                && Arrays.stream(topics.split(",")).map(String::trim).noneMatch(marker::equals)) {
            report.add(new ConfigProblem(TOPICS, missingMarker(TOPICS, topics, marker)));
        } else if (!regex.isEmpty() && !matches(regex, marker)) {
            report.add(new ConfigProblem(TOPICS_REGEX, missingMarker(TOPICS_REGEX, regex, marker)));
        }
        boolean singleTopic = report.isValid(SOURCE_TOPIC_SINGLE_NAME)
                && !((String) report.value(SOURCE_TOPIC_SINGLE_NAME)).isEmpty();
        if (singleTopic && format == SourceFormat.DEBEZIUM) {
            report.add(new ConfigProblem(
                    SOURCE_TOPIC_SINGLE_NAME,
                    SOURCE_TOPIC_SINGLE_NAME + " names the single change topic of pglane's source; Debezium's"
                            + " tables are read from their own topics (source.format=debezium)"));
        }
        if (!topics.isEmpty() && report.isValid(SOURCE_TOPIC_SINGLE_NAME) && !singleTopic) {
            Arrays.stream(topics.split(","))
                    .map(String::trim)
                    .map(topic -> TableNameAmbiguity.topicProblem(perTable, topic))
                    .filter(problem -> problem != null)
                    .forEach(problem -> report.add(new ConfigProblem(TOPICS, problem)));
        }
    }

    /**
     * A single change topic carries every table, so only an include list limits what its writers reach; and no
     * table name format may lead into a system schema whatever the source table is.
     */
    private static void checkTables(ValidationReport report) {
        if (report.isValid(SOURCE_TOPIC_SINGLE_NAME, TABLE_INCLUDE_LIST)
                && !((String) report.value(SOURCE_TOPIC_SINGLE_NAME)).isEmpty()
                && ((List<?>) report.value(TABLE_INCLUDE_LIST)).isEmpty()) {
            report.add(new ConfigProblem(
                    TABLE_INCLUDE_LIST,
                    "With " + SOURCE_TOPIC_SINGLE_NAME + " set, one topic carries the changes of every table, so a"
                            + " writer of it could name any table: list the tables this sink may write (e.g."
                            + " public\\..*)"));
        }
        if (report.isValid(TABLE_NAME_FORMAT)) {
            TableName sample = new TableMapping((String) report.value(TABLE_NAME_FORMAT)).targetOf("s", "t");
            if (RecordAdmission.isSystemSchema(sample.schema())) {
                report.add(new ConfigProblem(
                        TABLE_NAME_FORMAT,
                        TABLE_NAME_FORMAT + " '" + report.value(TABLE_NAME_FORMAT) + "' leads into schema "
                                + sample.schema() + ", a system schema the sink never writes"));
            }
        }
    }

    /**
     * With payload.format=json or avro the sink reads bytes, so the connector's value converter must leave them as
     * they are, and avro needs the registry; with connect the converter must not pass bytes. A converter left to the
     * worker's default is not seen here: the task names it then.
     */
    private static void checkPayloadFormat(ValidationReport report, Map<String, String> props) {
        if (!report.isValid(PAYLOAD_FORMAT)) {
            return;
        }
        PayloadFormat format = DecodeSettings.PAYLOAD_FORMATS.parse((String) report.value(PAYLOAD_FORMAT));
        String name = PAYLOAD_FORMAT + "=" + format.name().toLowerCase(Locale.ROOT);
        format.misfit(props, List.of(VALUE_CONVERTER))
                .ifPresent(misfit -> report.add(new ConfigProblem(
                        PAYLOAD_FORMAT,
                        format == PayloadFormat.CONNECT
                                ? VALUE_CONVERTER + " is " + PayloadFormat.BYTE_ARRAY_CONVERTER
                                        + ", which hands the sink bytes: set " + PAYLOAD_FORMAT + "=json or avro to"
                                        + " decode them"
                                : name + " decodes the records' bytes itself, but " + VALUE_CONVERTER + " is "
                                        + misfit.getValue() + ": set it (and key.converter) to "
                                        + PayloadFormat.BYTE_ARRAY_CONVERTER)));
        if (format == PayloadFormat.AVRO
                && props.getOrDefault(AvroPayload.REGISTRY_URL, "").isBlank()) {
            report.add(new ConfigProblem(
                    AvroPayload.REGISTRY_URL,
                    name + " reads Avro through a schema registry: set its Apicurio API URL"));
        }
    }

    /** The source's topics per table, by the validated source.topic.prefix (which must be valid). */
    static TopicNames sourceTopics(ValidationReport report) {
        return sourceFormat(report).perTable((String) report.value(SOURCE_TOPIC_PREFIX));
    }

    private static SourceFormat sourceFormat(ValidationReport report) {
        return report.isValid(DecodeSettings.SOURCE_FORMAT)
                ? DecodeSettings.SOURCE_FORMATS.parse((String) report.value(DecodeSettings.SOURCE_FORMAT))
                : SourceFormat.PGLANE;
    }

    private static String missingMarker(String key, String value, String marker) {
        return key + " '" + value + "' does not include the marker topic " + marker + " of " + SOURCE_TOPIC_PREFIX
                + "; the sink needs it for the transaction boundaries and the commit order";
    }

    private static boolean matches(String regex, String topic) {
        try {
            return Pattern.compile(regex).matcher(topic).matches();
        } catch (PatternSyntaxException e) {
            return true; // Connect reports the malformed pattern on topics.regex itself.
        }
    }
}
