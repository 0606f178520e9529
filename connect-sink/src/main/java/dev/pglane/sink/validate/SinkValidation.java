package dev.pglane.sink.validate;

import static dev.pglane.sink.PgSinkConfig.PROGRESS_STORE;
import static dev.pglane.sink.PgSinkConfig.PROGRESS_TABLE;

import dev.pglane.connect.database.DatabaseEndpoint;
import dev.pglane.connect.validate.ServerCheck;
import dev.pglane.connect.validate.ValidationReport;
import dev.pglane.sink.PgSinkConfig;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.apache.kafka.common.config.Config;

/**
 * The sink's {@code validate()}: field checks, then the rules between keys, then, once the
 * connection keys are valid, the server checks. A server check runs only when the keys it reads
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
        report.probeServer(connectorName, endpoint -> serverChecks(report, endpoint));
        return report.toConfig();
    }

    private static List<ServerCheck> serverChecks(ValidationReport report, DatabaseEndpoint endpoint) {
        List<ServerCheck> checks = new ArrayList<>();
        checks.add(new ApplySessionCheck(endpoint));
        if (report.isValid(PROGRESS_STORE, PROGRESS_TABLE)) {
            checks.add(new ProgressStoreCheck(
                    PgSinkConfig.progressStore(report::value), PgSinkConfig.progressTable(report::value), endpoint));
        }
        return checks;
    }
}
