package dev.pglane.source.validate;

import static dev.pglane.source.DecodingSettings.PAYLOAD_FORMAT;
import static dev.pglane.source.PgSourceConfig.PUBLICATION_CREATE;
import static dev.pglane.source.PgSourceConfig.PUBLICATION_NAME;
import static dev.pglane.source.PgSourceConfig.SLOT_NAME;
import static dev.pglane.source.PgSourceConfig.TABLE_EXCLUDE_LIST;
import static dev.pglane.source.PgSourceConfig.TABLE_INCLUDE_LIST;

import dev.pglane.connect.database.DatabaseEndpoint;
import dev.pglane.connect.validate.ServerCheck;
import dev.pglane.connect.validate.ValidationReport;
import dev.pglane.source.DecodingSettings;
import dev.pglane.source.HousekeepingSettings;
import dev.pglane.source.PgSourceConfig;
import dev.pglane.source.SnapshotMode;
import dev.pglane.source.SnapshotSettings;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.apache.kafka.common.config.Config;

/**
 * The source's {@code validate()}: field checks, then the rules between keys, then, once the
 * connection keys are valid, the server checks; a TLS mode that does not authenticate the server is logged as a
 * warning. A server check runs only when the keys it reads
 * are valid, so every message is about one mistake.
 */
public final class SourceValidation {
    private SourceValidation() {}

    /**
     * @param fieldChecks the ConfigDef's own validation of the same config
     * @param props the submitted config, for Connect's own keys that the ConfigDef does not hold
     * @param connectorName names the validation thread and session
     */
    public static Config validate(Config fieldChecks, Map<String, String> props, String connectorName) {
        ValidationReport report = new ValidationReport(fieldChecks);
        SourceConfigRules.check(report);
        DeliveryRules.problems(props).forEach(report::add);
        ExactlyOnceRules.problems(props).forEach(report::add);
        if (report.isValid(PAYLOAD_FORMAT)) {
            ConverterRules.problems(
                            DecodingSettings.PAYLOAD_FORMATS.parse((String) report.value(PAYLOAD_FORMAT)), props)
                    .forEach(report::add);
        }
        report.warnIfServerUnverified(connectorName);
        report.probeServer(connectorName, endpoint -> serverChecks(report, connectorName, endpoint));
        return report.toConfig();
    }

    private static List<ServerCheck> serverChecks(
            ValidationReport report, String connectorName, DatabaseEndpoint endpoint) {
        List<ServerCheck> checks = new ArrayList<>();
        checks.add(new LogicalReplicationCheck(endpoint));
        if (report.isValid(SnapshotSettings.SNAPSHOT_MODE)) {
            checks.add(new WalMessageCheck(
                    connectorName,
                    SnapshotSettings.SNAPSHOT_MODES.parse((String) report.value(SnapshotSettings.SNAPSHOT_MODE))
                            != SnapshotMode.NEVER));
        }
        if (report.isValid(SLOT_NAME)) {
            checks.add(new SlotCheck((String) report.value(SLOT_NAME), endpoint));
        }
        if (Boolean.TRUE.equals(report.value(HousekeepingSettings.SLOT_FAILOVER))) {
            checks.add(new FailoverCheck(connectorName, endpoint));
        }
        if (report.isValid(PUBLICATION_NAME, PUBLICATION_CREATE, TABLE_INCLUDE_LIST, TABLE_EXCLUDE_LIST)) {
            String listKey =
                    ((List<?>) report.value(TABLE_INCLUDE_LIST)).isEmpty() ? TABLE_EXCLUDE_LIST : TABLE_INCLUDE_LIST;
            checks.add(new PublicationCheck(
                    (String) report.value(PUBLICATION_NAME),
                    (Boolean) report.value(PUBLICATION_CREATE),
                    PgSourceConfig.tableFilter(report::value),
                    listKey,
                    endpoint));
        }
        return checks;
    }
}
