package dev.pglane.local.bench;

import dev.pglane.local.stack.ConnectRestClient;
import dev.pglane.local.stack.ConnectRestException;
import dev.pglane.local.stack.ConnectorConfigs;
import dev.pglane.local.stack.ConnectorStatus;
import dev.pglane.local.stack.PostgresNode;
import java.sql.Connection;
import java.time.Duration;
import java.util.Map;
import java.util.regex.Pattern;

/**
 * The pglane sink connector applying the backlog that the source stage left in Kafka: created over REST from
 * {@code config-examples/sink-json.json} with a new name (so a new consumer group that starts at the topics'
 * beginning), pointed at a fresh target database, and timed from its creation until its progress table's
 * {@code end_lsn} reaches the backlog's end.
 */
public final class SinkConnectorRun {
    static final String SYSTEM = "pglane";
    private static final String PROGRESS_TABLE = "progress.table";
    private static final Duration REMOVAL = Duration.ofSeconds(60);

    private final ConnectorConfigs configs;
    private final PostgresNode target;
    private final ConnectRestClient rest;
    private final String sourcePrefix;
    private final Map<String, String> settings;
    private final CpuMeter cpu;

    /**
     * @param sourcePrefix the {@code topic.prefix} of the source connector that wrote the backlog
     * @param settings changes to the example config, e.g. {@code buffer.max.bytes}
     */
    public SinkConnectorRun(
            PostgresNode source,
            PostgresNode target,
            ConnectRestClient rest,
            String bootstrapServers,
            String sourcePrefix,
            Map<String, String> settings) {
        if (settings.containsKey("progress.store") && !"table".equals(settings.get("progress.store"))) {
            throw new IllegalArgumentException("bench-sink reads the sink's position from its progress table;"
                    + " progress.store must stay 'table'");
        }
        this.configs = ConnectorConfigs.forStack(source, target, bootstrapServers);
        this.target = target;
        this.rest = rest;
        this.sourcePrefix = sourcePrefix;
        this.settings = settings;
        this.cpu = new CpuMeter(source, target);
    }

    CatchUpMeasurement measure(String database, int workers, String name, Backlog.Info backlog, int run)
            throws Exception {
        Map<String, String> config = config(database, workers, name);
        try (Connection connection = target.open(database)) {
            try {
                return new CatchUpTimer(connection, positionQuery(config), cpu)
                        .time(
                                CatchUpConfiguration.pglane(workers),
                                run,
                                backlog,
                                () -> rest.putConnectorConfig(name, config),
                                () -> checkRunning(name));
            } finally {
                remove(name);
            }
        }
    }

    /** The sink's config: the example's, reading the source stage's topics into {@code database}. */
    public Map<String, String> config(String database, int workers, String name) {
        Map<String, String> config = configs.load(ConnectorConfigs.SINK_JSON);
        config.remove("topics");
        config.put("name", name);
        config.put("topics.regex", Pattern.quote(sourcePrefix) + "\\..*");
        config.put("source.topic.prefix", sourcePrefix);
        config.put("database.name", database);
        config.put("apply.workers", Integer.toString(workers));
        config.putAll(settings);
        return config;
    }

    /** The sink's applied position, as {@link CatchUpTimer} reads it: its progress table's greatest end_lsn. */
    static String positionQuery(Map<String, String> config) {
        return "SELECT max(end_lsn)::text FROM " + config.get(PROGRESS_TABLE);
    }

    /**
     * Deletes the connector and waits until the worker has forgotten it, so that its task is stopping before the
     * next run starts rather than spending that run's CPU.
     */
    public void remove(String name) throws InterruptedException {
        deleteIfCreated(rest, name);
        long deadline = System.nanoTime() + REMOVAL.toNanos();
        while (System.nanoTime() < deadline) {
            try {
                rest.status(name);
            } catch (ConnectRestException e) {
                if (e.status() == 404) {
                    return;
                }
                throw e;
            }
            Thread.sleep(100);
        }
        throw new IllegalStateException(
                "the worker still knows connector " + name + " " + REMOVAL + " after its delete");
    }

    /**
     * Deletes connector {@code name}. One the worker does not know (its creation failed) is no error here: the
     * failure to report is the creation's, which this must not hide.
     */
    public static void deleteIfCreated(ConnectRestClient rest, String name) {
        try {
            rest.deleteConnector(name);
        } catch (ConnectRestException e) {
            if (e.status() != 404) {
                throw e;
            }
        }
    }

    public void checkRunning(String name) {
        ConnectorStatus status;
        try {
            status = rest.status(name);
        } catch (ConnectRestException e) {
            if (e.status() == 404) {
                return; // the worker has not registered the new connector yet
            }
            throw e;
        }
        if (status.hasFailed()) {
            // Connect's trace is in the log already; the report gets the first line of each failure
            throw new IllegalStateException("the sink failed: " + status.describe());
        }
    }
}
