package dev.pglane.sink;

import dev.pglane.connect.config.PluginVersion;
import dev.pglane.connect.config.TlsModeWarning;
import dev.pglane.sink.validate.SinkValidation;
import java.util.List;
import java.util.Map;
import org.apache.kafka.common.config.Config;
import org.apache.kafka.common.config.ConfigDef;
import org.apache.kafka.connect.connector.Task;
import org.apache.kafka.connect.sink.SinkConnector;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Applies the transactions a pglane source wrote to Kafka to a PostgreSQL database, in parallel
 * and in source commit order. It validates the configuration against the live server and plans
 * the one task.
 */
public final class PgSinkConnector extends SinkConnector {
    /** The project version, written into a resource by the build so it is stated only in the pom. */
    static final String VERSION = PluginVersion.of(PgSinkConnector.class);

    private static final Logger log = LoggerFactory.getLogger(PgSinkConnector.class);

    private Map<String, String> props;

    @Override
    public String version() {
        return VERSION;
    }

    @Override
    public void start(Map<String, String> props) {
        PgSinkConfig config = new PgSinkConfig(props);
        this.props = Map.copyOf(props);
        log.info(
                "Starting pglane sink {} into {}/{} ({} apply workers, markers from {})",
                VERSION,
                config.database().address(),
                config.database().database(),
                config.applyWorkers(),
                config.markerTopic());
        TlsModeWarning.log(
                log, props.getOrDefault("name", "sink"), config.database().tls().mode());
    }

    @Override
    public Class<? extends Task> taskClass() {
        return PgSinkTask.class;
    }

    /**
     * Always one task: committing transactions in source order across every partition needs one
     * apply leader that sees all of them. The parallelism is inside the task, in its apply workers
     * ({@code apply.workers}).
     */
    @Override
    public List<Map<String, String>> taskConfigs(int maxTasks) {
        if (maxTasks > 1) {
            log.info(
                    "tasks.max is {}, but the sink runs one task: source commit order across all partitions needs"
                            + " one apply leader; transactions apply in parallel inside the task (apply.workers)",
                    maxTasks);
        }
        return List.of(props);
    }

    @Override
    public void stop() {
        // The connector holds no resources: the task owns the apply sessions.
    }

    @Override
    public ConfigDef config() {
        return PgSinkConfig.CONFIG_DEF;
    }

    @Override
    public Config validate(Map<String, String> connectorConfigs) {
        String name = connectorConfigs.getOrDefault("name", "sink");
        return SinkValidation.validate(super.validate(connectorConfigs), connectorConfigs, name);
    }
}
