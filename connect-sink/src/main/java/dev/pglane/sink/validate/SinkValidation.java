package dev.pglane.sink.validate;

import static dev.pglane.sink.PgSinkConfig.APPLY_ORIGIN;
import static dev.pglane.sink.PgSinkConfig.AUTO_CREATE;
import static dev.pglane.sink.PgSinkConfig.PROGRESS_STORE;
import static dev.pglane.sink.PgSinkConfig.PROGRESS_TABLE;
import static dev.pglane.sink.PgSinkConfig.SOURCE_TOPIC_PREFIX;
import static dev.pglane.sink.PgSinkConfig.TABLE_NAME_FORMAT;

import dev.pglane.connect.database.DatabaseEndpoint;
import dev.pglane.connect.validate.ServerCheck;
import dev.pglane.connect.validate.ValidationReport;
import dev.pglane.sink.PgSinkConfig;
import dev.pglane.sink.TableGroupSettings;
import dev.pglane.sink.admit.ApplyScope;
import dev.pglane.sink.admit.ConsumedTopics;
import dev.pglane.sink.progress.ProgressStore;
import dev.pglane.sink.target.TableMapping;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.apache.kafka.common.config.Config;

/**
 * The sink's {@code validate()}: field checks, then the rules between keys, then, once the
 * connection keys are valid, the server checks; a TLS mode that does not authenticate the server is logged as a
 * warning. A server check runs only when the keys it reads
 * are valid, so every message is about one mistake.
 */
public final class SinkValidation {
    private SinkValidation() {}

    /**
     * @param fieldChecks the ConfigDef's own validation of {@code props}
     * @param props the submitted config, for Connect's own keys that the ConfigDef does not hold
     * @param connectorName names the validation thread and session
     */
    public static Config validate(Config fieldChecks, Map<String, String> props, String connectorName) {
        ValidationReport report = new ValidationReport(fieldChecks);
        SinkConfigRules.check(report, props);
        report.warnIfServerUnverified(connectorName);
        report.probeServer(connectorName, endpoint -> serverChecks(report, props, endpoint, connectorName));
        return report.toConfig();
    }

    private static List<ServerCheck> serverChecks(
            ValidationReport report, Map<String, String> props, DatabaseEndpoint endpoint, String connectorName) {
        List<ServerCheck> checks = new ArrayList<>();
        checks.add(new SuperuserCheck(connectorName));
        checks.add(new ApplySessionCheck(endpoint));
        if (report.isValid(PROGRESS_STORE, PROGRESS_TABLE, APPLY_ORIGIN)) {
            checks.add(new ProgressStoreCheck(
                    PgSinkConfig.progressStore(report::value),
                    PgSinkConfig.progressTable(report::value),
                    Boolean.TRUE.equals(report.value(APPLY_ORIGIN)),
                    endpoint));
        }
        listedTopicsCheck(report, props).ifPresent(checks::add);
        tableGroupCheck(report, props, connectorName).ifPresent(checks::add);
        return checks;
    }

    /** Another sink's group is read from the progress table, so only a group that records its progress there. */
    private static Optional<ServerCheck> tableGroupCheck(
            ValidationReport report, Map<String, String> props, String connectorName) {
        if (!report.isValid(PROGRESS_STORE, PROGRESS_TABLE, SOURCE_TOPIC_PREFIX, TableGroupSettings.APPLY_SCOPE)
                || PgSinkConfig.progressStore(report::value) != ProgressStore.TABLE
                || TableGroupSettings.scope(report::value) != ApplyScope.CONSUMED_TOPICS) {
            return Optional.empty();
        }
        ConsumedTopics group = ConsumedTopics.of(props);
        return Optional.of(new TableGroupCheck(
                group.isRegex() ? SinkConfigRules.TOPICS_REGEX : SinkConfigRules.TOPICS,
                connectorName,
                SinkConfigRules.sourceTopics(report),
                PgSinkConfig.progressTable(report::value),
                group));
    }

    /** Target tables are checked up front only when auto.create is off and the topics are listed by name. */
    private static Optional<ServerCheck> listedTopicsCheck(ValidationReport report, Map<String, String> props) {
        String topics = props.getOrDefault(SinkConfigRules.TOPICS, "").trim();
        if (topics.isEmpty()
                || !report.isValid(AUTO_CREATE, TABLE_NAME_FORMAT, SOURCE_TOPIC_PREFIX)
                || Boolean.TRUE.equals(report.value(AUTO_CREATE))) {
            return Optional.empty();
        }
        List<String> listed = Arrays.stream(topics.split(",")).map(String::trim).toList();
        return Optional.of(new TargetTablesCheck(SinkConfigRules.sourceTopics(report), listed, new TableMapping((String)
                report.value(TABLE_NAME_FORMAT))));
    }
}
