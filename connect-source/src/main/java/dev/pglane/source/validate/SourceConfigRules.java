package dev.pglane.source.validate;

import static dev.pglane.source.ColumnSettings.COLUMN_EXCLUDE_LIST;
import static dev.pglane.source.ColumnSettings.COLUMN_INCLUDE_LIST;
import static dev.pglane.source.ColumnSettings.COLUMN_MASK_HASH_LIST;
import static dev.pglane.source.ColumnSettings.COLUMN_MASK_HASH_SALT;
import static dev.pglane.source.HousekeepingSettings.HEARTBEAT_ACTION_QUERY;
import static dev.pglane.source.PaceSettings.SNAPSHOT_PACE_BOOTSTRAP_SERVERS;
import static dev.pglane.source.PaceSettings.SNAPSHOT_PACE_GROUP;
import static dev.pglane.source.PgSourceConfig.HEARTBEAT_INTERVAL_MS;
import static dev.pglane.source.PgSourceConfig.RECONNECT_BACKOFF_INITIAL_MS;
import static dev.pglane.source.PgSourceConfig.RECONNECT_BACKOFF_MAX_MS;
import static dev.pglane.source.PgSourceConfig.TABLE_EXCLUDE_LIST;
import static dev.pglane.source.PgSourceConfig.TABLE_INCLUDE_LIST;
import static dev.pglane.source.PgSourceConfig.TOPIC_PREFIX;
import static dev.pglane.source.PgSourceConfig.TOPIC_SINGLE_NAME;
import static dev.pglane.source.SnapshotSettings.SIGNAL_KAFKA_BOOTSTRAP_SERVERS;
import static dev.pglane.source.SnapshotSettings.SIGNAL_KAFKA_TOPIC;

import dev.pglane.connect.validate.ConfigProblem;
import dev.pglane.connect.validate.ValidationReport;
import dev.pglane.source.ColumnSettings;
import dev.pglane.wire.TopicNames;
import java.util.List;
import org.apache.kafka.common.config.types.Password;

/** The rules between keys of the source config, checked once each key is valid on its own. */
final class SourceConfigRules {
    private SourceConfigRules() {}

    static void check(ValidationReport report) {
        tableLists(report);
        columnLists(report);
        backoff(report);
        signalTopic(report);
        paceGroup(report);
        heartbeatAction(report);
        singleTopic(report);
    }

    private static void tableLists(ValidationReport report) {
        oneOf(report, TABLE_INCLUDE_LIST, TABLE_EXCLUDE_LIST);
    }

    private static void columnLists(ValidationReport report) {
        oneOf(report, COLUMN_INCLUDE_LIST, COLUMN_EXCLUDE_LIST);
        if (report.isValid(COLUMN_MASK_HASH_LIST, COLUMN_MASK_HASH_SALT)
                && !((List<?>) report.value(COLUMN_MASK_HASH_LIST)).isEmpty()
                && ColumnSettings.salt((Password) report.value(COLUMN_MASK_HASH_SALT))
                        .isEmpty()) {
            report.add(new ConfigProblem(
                    COLUMN_MASK_HASH_SALT,
                    COLUMN_MASK_HASH_SALT + " is required with " + COLUMN_MASK_HASH_LIST
                            + ": unsalted, a hashed value could be found by hashing guesses"));
        }
    }

    /** An include list and its exclude list: one or the other, not both. */
    private static void oneOf(ValidationReport report, String include, String exclude) {
        if (report.isValid(include, exclude)
                && !((List<?>) report.value(include)).isEmpty()
                && !((List<?>) report.value(exclude)).isEmpty()) {
            String message = include + " and " + exclude + " cannot both be set; keep one";
            report.add(new ConfigProblem(include, message));
            report.add(new ConfigProblem(exclude, message));
        }
    }

    private static void backoff(ValidationReport report) {
        if (report.isValid(RECONNECT_BACKOFF_INITIAL_MS, RECONNECT_BACKOFF_MAX_MS)
                && (Integer) report.value(RECONNECT_BACKOFF_INITIAL_MS)
                        > (Integer) report.value(RECONNECT_BACKOFF_MAX_MS)) {
            report.add(new ConfigProblem(
                    RECONNECT_BACKOFF_INITIAL_MS,
                    RECONNECT_BACKOFF_INITIAL_MS + " (" + report.value(RECONNECT_BACKOFF_INITIAL_MS)
                            + ") must not be larger than " + RECONNECT_BACKOFF_MAX_MS + " ("
                            + report.value(RECONNECT_BACKOFF_MAX_MS) + ")"));
        }
    }

    private static void signalTopic(ValidationReport report) {
        brokersWith(report, SIGNAL_KAFKA_TOPIC, SIGNAL_KAFKA_BOOTSTRAP_SERVERS, "reads the signals with a consumer");
    }

    private static void paceGroup(ValidationReport report) {
        brokersWith(
                report,
                SNAPSHOT_PACE_GROUP,
                SNAPSHOT_PACE_BOOTSTRAP_SERVERS,
                "reads the group's lag with an admin client");
    }

    /** {@code brokers} must be set when {@code key} is: the task {@code does} of its own there. */
    private static void brokersWith(ValidationReport report, String key, String brokers, String does) {
        if (report.isValid(key, brokers)
                && !((String) report.value(key)).isBlank()
                && ((String) report.value(brokers)).isBlank()) {
            report.add(new ConfigProblem(
                    brokers, brokers + " is required with " + key + ": the task " + does + " of its own"));
        }
    }

    private static void heartbeatAction(ValidationReport report) {
        if (report.isValid(HEARTBEAT_ACTION_QUERY, HEARTBEAT_INTERVAL_MS)
                && !((String) report.value(HEARTBEAT_ACTION_QUERY)).isBlank()
                && (Integer) report.value(HEARTBEAT_INTERVAL_MS) == 0) {
            report.add(new ConfigProblem(
                    HEARTBEAT_ACTION_QUERY,
                    HEARTBEAT_ACTION_QUERY + " runs at every heartbeat: set " + HEARTBEAT_INTERVAL_MS
                            + " above 0 too"));
        }
    }

    private static void singleTopic(ValidationReport report) {
        if (report.isValid(TOPIC_PREFIX, TOPIC_SINGLE_NAME)) {
            TopicNames topics = TopicNames.perTable((String) report.value(TOPIC_PREFIX));
            Object single = report.value(TOPIC_SINGLE_NAME);
            if (topics.transactionsTopic().equals(single)
                    || topics.messagesTopic().equals(single)) {
                report.add(new ConfigProblem(
                        TOPIC_SINGLE_NAME,
                        TOPIC_SINGLE_NAME + " '" + single + "' is taken by pglane's markers or messages under "
                                + TOPIC_PREFIX + "; change records need a topic of their own"));
            }
        }
    }
}
