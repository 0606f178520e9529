package dev.pglane.source;

import dev.pglane.connect.config.PluginVersion;
import dev.pglane.connect.config.TlsModeWarning;
import dev.pglane.source.validate.ExactlyOnceRules;
import dev.pglane.source.validate.SourceValidation;
import java.util.List;
import java.util.Map;
import org.apache.kafka.common.config.Config;
import org.apache.kafka.common.config.ConfigDef;
import org.apache.kafka.connect.connector.Task;
import org.apache.kafka.connect.source.ConnectorTransactionBoundaries;
import org.apache.kafka.connect.source.ExactlyOnceSupport;
import org.apache.kafka.connect.source.SourceConnector;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Streams the changes of one PostgreSQL database into Kafka through logical replication
 * (pgoutput). It validates the configuration against the live server and plans the one task.
 */
public final class PgSourceConnector extends SourceConnector {
    /** The project version, written into a resource by the build so it is stated only in the pom. */
    static final String VERSION = PluginVersion.of(PgSourceConnector.class);

    private static final Logger log = LoggerFactory.getLogger(PgSourceConnector.class);

    private Map<String, String> props;

    @Override
    public String version() {
        return VERSION;
    }

    @Override
    public void start(Map<String, String> props) {
        PgSourceConfig config = new PgSourceConfig(props);
        this.props = Map.copyOf(props);
        log.info(
                "Starting pglane source {} for {}/{} (slot {}, publication {})",
                VERSION,
                config.database().address(),
                config.database().database(),
                config.slotName(),
                config.publicationName());
        TlsModeWarning.log(
                log,
                props.getOrDefault("name", "source"),
                config.database().tls().mode());
    }

    @Override
    public Class<? extends Task> taskClass() {
        return PgSourceTask.class;
    }

    /**
     * Always one task: one replication slot is one ordered stream, and only one connection may read
     * it. The parallelism is inside the task, in its decoder lanes ({@code decoder.lanes}).
     */
    @Override
    public List<Map<String, String>> taskConfigs(int maxTasks) {
        if (maxTasks > 1) {
            log.info(
                    "tasks.max is {}, but the source runs one task: a replication slot is one ordered stream;"
                            + " decoding runs in parallel inside the task (decoder.lanes)",
                    maxTasks);
        }
        return List.of(props);
    }

    @Override
    public void stop() {
        // The connector holds no resources: the task owns the replication connection.
    }

    /**
     * Exactly once when the source draws the Kafka transactions' boundaries ({@link ExactlyOnceRules}); under {@code
     * poll} or {@code interval} boundaries a restart may send a transaction's start again, so a connector that
     * requires exactly-once ({@code exactly.once.support=required}) is refused then.
     */
    @Override
    public ExactlyOnceSupport exactlyOnceSupport(Map<String, String> connectorConfig) {
        return ExactlyOnceRules.exactlyOnce(connectorConfig)
                ? ExactlyOnceSupport.SUPPORTED
                : ExactlyOnceSupport.UNSUPPORTED;
    }

    @Override
    public ConnectorTransactionBoundaries canDefineTransactionBoundaries(Map<String, String> connectorConfig) {
        return ExactlyOnceRules.canDrawBoundaries(connectorConfig)
                ? ConnectorTransactionBoundaries.SUPPORTED
                : ConnectorTransactionBoundaries.UNSUPPORTED;
    }

    @Override
    public ConfigDef config() {
        return PgSourceConfig.CONFIG_DEF;
    }

    @Override
    public Config validate(Map<String, String> connectorConfigs) {
        String name = connectorConfigs.getOrDefault("name", "source");
        return SourceValidation.validate(super.validate(connectorConfigs), connectorConfigs, name);
    }
}
