package dev.pglane.local.stack;

import java.nio.file.Path;
import java.time.Duration;
import java.util.HashMap;
import java.util.Map;
import org.apache.kafka.connect.cli.ConnectDistributed;
import org.apache.kafka.connect.runtime.Connect;
import org.apache.kafka.connect.runtime.distributed.DistributedHerder;

/**
 * One real Connect distributed worker inside this JVM, configured the way a user's worker would be and loading the
 * connectors only from {@code plugin.path}.
 *
 * <p>{@link #start} returns once {@code GET /health} answers 200, so the worker has joined its group and accepts
 * connector configs.
 */
public final class ConnectNode implements AutoCloseable {
    private static final String HOST = "127.0.0.1";
    private static final String GROUP = "pglane-local";
    private static final String EXACTLY_ONCE_GROUP = "pglane-local-exactly-once";
    /** Shipped in both plugins; the worker finds it on plugin.path, like the connectors. */
    public static final String PGLANE_JSON_CONVERTER = "dev.pglane.connect.json.PglaneJsonConverter";

    private static final Duration READY_TIMEOUT = Duration.ofSeconds(120);

    private final Connect<DistributedHerder> connect;
    private final ConnectRestClient rest;

    private ConnectNode(Connect<DistributedHerder> connect, ConnectRestClient rest) {
        this.connect = connect;
        this.rest = rest;
    }

    /**
     * Starts a worker against {@code bootstrapServers} that loads plugins from {@code pluginPath} and, for a test
     * that runs another project's connector beside pglane's, from {@code morePluginPaths}.
     */
    public static ConnectNode start(String bootstrapServers, Path pluginPath, Path... morePluginPaths) {
        return start(workerProperties(bootstrapServers, pluginPath, FreePorts.next()), morePluginPaths);
    }

    /**
     * A worker of a group of its own ({@value #EXACTLY_ONCE_GROUP}, with its own internal topics) with exactly-once
     * support for source connectors (KIP-618): its source tasks write records and offsets in Kafka transactions. Beside
     * a worker of {@link #start}, it lets a benchmark run the same connectors with and without it.
     */
    public static ConnectNode startExactlyOnce(String bootstrapServers, Path pluginPath) {
        Map<String, String> props = workerProperties(bootstrapServers, pluginPath, FreePorts.next());
        props.put("group.id", EXACTLY_ONCE_GROUP);
        props.put("config.storage.topic", EXACTLY_ONCE_GROUP + "-configs");
        props.put("offset.storage.topic", EXACTLY_ONCE_GROUP + "-offsets");
        props.put("status.storage.topic", EXACTLY_ONCE_GROUP + "-status");
        props.put("exactly.once.source.support", "enabled");
        return start(props);
    }

    private static ConnectNode start(Map<String, String> props, Path... morePluginPaths) {
        int restPort = Integer.parseInt(props.get("rest.advertised.port"));
        for (Path more : morePluginPaths) {
            props.merge("plugin.path", more.toAbsolutePath().toString(), (a, b) -> a + "," + b);
        }
        Connect<DistributedHerder> connect = new ConnectDistributed().startConnect(props);
        ConnectNode node = new ConnectNode(connect, new ConnectRestClient("http://" + HOST + ":" + restPort));
        try {
            node.rest.awaitHealthy(READY_TIMEOUT);
        } catch (RuntimeException e) {
            node.close();
            throw e;
        }
        return node;
    }

    /**
     * The worker properties {@link #start} uses: every worker of the stack, in this process or another, joins the
     * same group and shares its config, offset and status topics, so any of them can take the connectors over.
     */
    public static Map<String, String> workerProperties(String bootstrapServers, Path pluginPath, int restPort) {
        Map<String, String> props = new HashMap<>();
        props.put("bootstrap.servers", bootstrapServers);
        props.put("group.id", GROUP);
        props.put("listeners", "http://" + HOST + ":" + restPort);
        props.put("rest.advertised.host.name", HOST);
        props.put("rest.advertised.port", String.valueOf(restPort));
        props.put("config.storage.topic", GROUP + "-configs");
        props.put("offset.storage.topic", GROUP + "-offsets");
        props.put("status.storage.topic", GROUP + "-status");
        props.put("config.storage.replication.factor", "1");
        props.put("offset.storage.replication.factor", "1");
        props.put("status.storage.replication.factor", "1");
        props.put("offset.storage.partitions", "1");
        props.put("status.storage.partitions", "1");
        // pglane's JsonConverter-compatible converter, so every story runs it; the tests read topics with
        // Kafka's own JsonConverter (WireDecoder), as other consumers would
        props.put("key.converter", PGLANE_JSON_CONVERTER);
        props.put("value.converter", PGLANE_JSON_CONVERTER);
        props.put("plugin.path", pluginPath.toAbsolutePath().toString());
        // our plugins ship META-INF/services files; scanning every jar instead would double the start-up time
        props.put("plugin.discovery", "service_load");
        // source offsets (and so the replication slot) should follow Kafka acknowledgements closely in tests
        props.put("offset.flush.interval.ms", "1000");
        // a lone worker: no other worker can take over a lost assignment, so waiting for one only delays a restart
        props.put("scheduled.rebalance.max.delay.ms", "0");
        return props;
    }

    /** The REST root, e.g. {@code http://127.0.0.1:40123}. */
    public String restUrl() {
        return rest.baseUrl();
    }

    public ConnectRestClient rest() {
        return rest;
    }

    /**
     * Stops the worker and waits for it. Call it before the broker goes: a worker left running while the broker
     * shuts down spends half a minute in client close timeouts. Connect's own JVM shutdown hook may be stopping the
     * worker at the same moment; {@code stop()} then returns at once and {@code awaitStop()} waits for that stop.
     */
    @Override
    public void close() {
        connect.stop();
        connect.awaitStop();
    }

    @Override
    public String toString() {
        return "Connect worker at " + restUrl();
    }
}
