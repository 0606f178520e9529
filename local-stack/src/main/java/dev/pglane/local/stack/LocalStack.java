package dev.pglane.local.stack;

import dev.pglane.local.kafka.TopicFormat;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.List;
import java.util.Map;
import java.util.function.Supplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The whole local pipeline: a source PostgreSQL with logical decoding, a target PostgreSQL, a KRaft broker and a
 * Connect worker that loads pglane from {@code plugin.path}; optionally both connectors, created over REST from the
 * config-examples templates.
 *
 * <p>Parts start in that order, one INFO line each with its time, and {@link #close()} stops them in reverse. A
 * close from another thread (a shutdown hook) waits for the part being started and stops the start there, so a
 * stack interrupted while starting leaves no server behind.
 */
public final class LocalStack implements AutoCloseable {
    private static final Logger log = LoggerFactory.getLogger(LocalStack.class);
    // time for Connect to start a new connector's tasks and report RUNNING or FAILED for each
    private static final Duration SETTLE_TIMEOUT = Duration.ofSeconds(60);

    /**
     * How to build the stack.
     *
     * @param workDir where the databases' data and the broker's log live; the caller cleans it
     * @param pluginPath the worker's {@code plugin.path}, holding {@code pglane-source/} and {@code pglane-sink/}
     * @param createConnectors whether to create both connectors from the config-examples templates
     * @param avro whether the connectors write and read Avro ({@code payload.format=avro}, in their own threads)
     *     through a schema registry the stack starts, instead of JSON
     */
    public record Options(
            PostgresVersion version, Path workDir, Path pluginPath, boolean createConnectors, boolean avro) {}

    private final Options options;
    private final Deque<AutoCloseable> started = new ArrayDeque<>();
    private boolean closed;
    private PostgresNode source;
    private PostgresNode target;
    private KafkaNode kafka;
    private ConnectNode connect;
    private RegistryNode registry;
    private String sourceConnector;
    private String sinkConnector;

    public LocalStack(Options options) {
        this.options = options;
    }

    /** Starts every part; on failure, stops those already started and rethrows. */
    public void start() {
        long begin = System.nanoTime();
        try {
            PostgresVersion version = options.version();
            source = startPart(
                    "source PostgreSQL",
                    () -> PostgresNode.start("source", version, options.workDir(), PostgresNode.WalLevel.LOGICAL));
            target = startPart(
                    "target PostgreSQL",
                    () -> PostgresNode.start("target", version, options.workDir(), PostgresNode.WalLevel.REPLICA));
            kafka = startPart("Kafka", () -> KafkaNode.start(options.workDir()));
            connect = startPart("Connect", () -> ConnectNode.start(kafka.bootstrapServers(), options.pluginPath()));
            if (options.avro()) {
                registry = startPart(
                        "schema registry",
                        () -> RegistryNode.start(options.workDir().resolve("registry")));
            }
            if (options.createConnectors()) {
                createConnectors(Map.of());
            }
        } catch (RuntimeException e) {
            close();
            throw e;
        }
        log.info("stack ready in {}", Timing.since(begin));
    }

    private synchronized <T extends AutoCloseable> T startPart(String part, Supplier<T> starter) {
        if (closed) {
            throw new IllegalStateException("stack closed before " + part + " started");
        }
        long begin = System.nanoTime();
        T node = starter.get();
        started.push(node);
        log.info("{} started in {}: {}", part, Timing.since(begin), node);
        return node;
    }

    /**
     * Creates both connectors from the config-examples templates, the sink with {@code sinkSettings} on top of its
     * template, and logs the state Connect settles each in.
     */
    public void createConnectors(Map<String, String> sinkSettings) {
        createConnectors(Map.of(), sinkSettings);
    }

    /** {@link #createConnectors(Map)} with {@code sourceSettings} on top of the source's template. */
    public void createConnectors(Map<String, String> sourceSettings, Map<String, String> sinkSettings) {
        long begin = System.nanoTime();
        ConnectorConfigs configs = ConnectorConfigs.forStack(source, target, kafka.bootstrapServers());
        Map<String, String> sourceConfig = configs.load(ConnectorConfigs.SOURCE_JSON);
        Map<String, String> sink = configs.load(ConnectorConfigs.SINK_JSON);
        if (registry != null) {
            sourceConfig.putAll(TopicFormat.avroInLanes(registry.apicurioV2Url()));
            sink.putAll(TopicFormat.avroInLanes(registry.apicurioV2Url()));
        }
        sourceConfig.putAll(sourceSettings);
        sourceConnector = createConnector(sourceConfig, "pglane-source");
        sink.putAll(sinkSettings);
        sinkConnector = createConnector(sink, "pglane-sink");
        log.info("connectors created in {}", Timing.since(begin));
        // report what Connect reports, failures included: a stack that hid a failed task would mislead its user
        for (ConnectorStatus status : connectorStatuses()) {
            if (status.isRunning()) {
                log.info("{}", status.describe());
            } else {
                log.warn("{}", status.describe());
            }
        }
    }

    /** The schema registry's Apicurio v2 API, or {@code null} for a JSON stack. */
    public String registryUrl() {
        return registry == null ? null : registry.apicurioV2Url();
    }

    private String createConnector(Map<String, String> config, String defaultName) {
        String name = config.getOrDefault("name", defaultName);
        connect.rest().putConnectorConfig(name, config);
        return name;
    }

    /** The state of each connector the stack created, once Connect has settled it (or the wait ran out). */
    private List<ConnectorStatus> connectorStatuses() {
        List<ConnectorStatus> statuses = new ArrayList<>();
        for (String name : new String[] {sourceConnector, sinkConnector}) {
            if (name != null) {
                ConnectorStatus status = connect.rest().awaitSettled(name, SETTLE_TIMEOUT);
                statuses.add(status != null ? status : new ConnectorStatus(name, "UNKNOWN", null, List.of()));
            }
        }
        return statuses;
    }

    public PostgresNode source() {
        return source;
    }

    public PostgresNode target() {
        return target;
    }

    public KafkaNode kafka() {
        return kafka;
    }

    public ConnectRestClient rest() {
        return connect.rest();
    }

    public Endpoints endpoints() {
        return new Endpoints(
                source.jdbcUrl(),
                target.jdbcUrl(),
                kafka.bootstrapServers(),
                connect.restUrl(),
                sourceConnector,
                sinkConnector);
    }

    /** Stops every started part, the last started first; a part that fails to stop does not keep the rest up. */
    @Override
    public synchronized void close() {
        if (closed) {
            return;
        }
        closed = true;
        long begin = System.nanoTime();
        while (!started.isEmpty()) {
            AutoCloseable part = started.pop();
            long partBegin = System.nanoTime();
            try {
                part.close();
                log.info("stopped {} in {}", part, Timing.since(partBegin));
            } catch (Exception e) {
                log.warn("stopping {} failed", part, e);
            }
        }
        log.info("stack stopped in {}", Timing.since(begin));
    }
}
