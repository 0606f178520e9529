package dev.pglane.it;

import dev.pglane.local.fault.ConnectCluster;
import dev.pglane.local.fault.ConnectWorkerProcess;
import dev.pglane.local.stack.ConnectNode;
import dev.pglane.local.stack.ConnectRestClient;
import dev.pglane.local.stack.ConnectorConfigs;
import dev.pglane.local.stack.KafkaNode;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.extension.AfterAllCallback;
import org.junit.jupiter.api.extension.BeforeAllCallback;
import org.junit.jupiter.api.extension.ExtensionContext;

/**
 * A broker and a Connect worker that load the packaged pglane plugins, started once for a test class: starting them
 * is most of an integration test's cost, and the tests only add connectors or validate configs.
 *
 * <pre>{@code @RegisterExtension static final SharedWorker worker = new SharedWorker();}</pre>
 *
 * <p>{@link #inOwnProcess()} runs the worker in a JVM of its own instead, for tests that kill it.
 */
public final class SharedWorker implements BeforeAllCallback, AfterAllCallback {
    public static final String SOURCE_CONNECTOR = ConnectorConfigs.SOURCE_CLASS;
    public static final String SINK_CONNECTOR = ConnectorConfigs.SINK_CLASS;

    private final boolean ownProcess;
    private final boolean thirdPartyPlugins;
    private final int clusterSize;
    /** Properties of the cluster's workers on top of the stack's. */
    private final Map<String, String> clusterProps;

    private Path workDir;
    private KafkaNode kafka;
    private ConnectNode connect;
    private ConnectWorkerProcess process;
    private ConnectCluster cluster;

    public SharedWorker() {
        this(false, false, 0, Map.of());
    }

    private SharedWorker(
            boolean ownProcess, boolean thirdPartyPlugins, int clusterSize, Map<String, String> clusterProps) {
        this.ownProcess = ownProcess;
        this.thirdPartyPlugins = thirdPartyPlugins;
        this.clusterSize = clusterSize;
        this.clusterProps = clusterProps;
    }

    /** A worker in a JVM of its own ({@link ConnectWorkerProcess}): {@link #workerProcess()} can kill it. */
    static SharedWorker inOwnProcess() {
        return new SharedWorker(true, false, 0, Map.of());
    }

    /**
     * A group of {@code size} workers, each in a JVM of its own and cut off from the broker at will ({@link
     * ConnectCluster}); {@link #rest()} then talks to a worker that runs and reaches the broker.
     */
    static SharedWorker cluster(int size) {
        return new SharedWorker(false, false, size, Map.of());
    }

    /**
     * As {@link #cluster(int)}, with exactly-once support for source connectors on every worker (KIP-618: {@code
     * exactly.once.source.support=enabled}): each source task writes its records and offsets in Kafka transactions.
     */
    static SharedWorker exactlyOnceCluster(int size) {
        return new SharedWorker(false, false, size, Map.of("exactly.once.source.support", "enabled"));
    }

    /**
     * A worker that also loads the other projects' plugins the build unpacked (Debezium's JDBC sink connector and its
     * transformations): only the tests of those consumers pay for loading them.
     */
    static SharedWorker withThirdPartyPlugins() {
        return new SharedWorker(false, true, 0, Map.of());
    }

    @Override
    public void beforeAll(ExtensionContext context) throws IOException {
        workDir = Files.createTempDirectory("pglane-worker-");
        if (clusterSize > 0) {
            cluster = ConnectCluster.start(workDir, pluginPath(), clusterSize, clusterProps);
            kafka = cluster.kafka();
            return;
        }
        kafka = KafkaNode.start(workDir);
        if (ownProcess) {
            process = ConnectWorkerProcess.start(kafka.bootstrapServers(), pluginPath(), workDir);
        } else {
            connect = thirdPartyPlugins
                    ? ConnectNode.start(kafka.bootstrapServers(), pluginPath(), thirdPartyPluginPath())
                    : ConnectNode.start(kafka.bootstrapServers(), pluginPath());
        }
    }

    /**
     * The worker process's log outlives the work directory, in {@code target/worker-logs/<test class>.log}: the
     * in-process worker logs into the test report, this one does not, and a failed story needs it.
     */
    private static void keepWorkerLog(ExtensionContext context, ConnectWorkerProcess process, String suffix)
            throws IOException {
        Path kept =
                Path.of("target", "worker-logs", context.getRequiredTestClass().getSimpleName() + suffix + ".log");
        Files.createDirectories(kept.getParent());
        Files.copy(process.logFile(), kept, StandardCopyOption.REPLACE_EXISTING);
    }

    /** The worker first, then the broker: a worker whose broker is gone waits out its client timeouts. */
    @Override
    public void afterAll(ExtensionContext context) throws IOException {
        try {
            if (connect != null) {
                connect.close();
            }
            if (process != null) {
                process.close();
                keepWorkerLog(context, process, "");
            }
            if (cluster != null) {
                cluster.close(); // the broker too
                kafka = null;
                List<ConnectWorkerProcess> workers = cluster.workers();
                for (int i = 0; i < workers.size(); i++) {
                    keepWorkerLog(context, workers.get(i), "-worker-" + i);
                }
            }
        } finally {
            if (kafka != null) {
                kafka.close();
            }
            deleteRecursively(workDir);
        }
    }

    public ConnectRestClient rest() {
        if (cluster != null) {
            return cluster.rest();
        }
        return ownProcess ? process.rest() : connect.rest();
    }

    /** The group of workers; only for a {@link #cluster(int) cluster}. */
    ConnectCluster connectCluster() {
        if (cluster == null) {
            throw new IllegalStateException("this is a single worker, not a cluster");
        }
        return cluster;
    }

    /** The worker's process; only for a worker {@link #inOwnProcess() in its own process}. */
    ConnectWorkerProcess workerProcess() {
        if (!ownProcess) {
            throw new IllegalStateException("this worker runs inside the test JVM");
        }
        return process;
    }

    /** The broker, e.g. to restart it. */
    KafkaNode kafka() {
        return kafka;
    }

    public String bootstrapServers() {
        return kafka.bootstrapServers();
    }

    /** The {@code plugin.path} the build laid out from the packaged plugins (failsafe passes it). */
    static Path pluginPath() {
        String dir = System.getProperty("pglane.plugin.path");
        if (dir == null || !Files.isDirectory(Path.of(dir, "pglane-source"))) {
            throw new IllegalStateException("pglane.plugin.path is not a plugin.path with pglane-source/: " + dir
                    + " (run the tests through mvn verify)");
        }
        return Path.of(dir);
    }

    /** The {@code plugin.path} of other projects' plugins, unpacked from Maven Central by the build. */
    private static Path thirdPartyPluginPath() {
        String dir = System.getProperty("pglane.third.party.plugin.path");
        if (dir == null || !Files.isDirectory(Path.of(dir))) {
            throw new IllegalStateException("pglane.third.party.plugin.path is not a directory: " + dir
                    + " (run the tests through mvn verify)");
        }
        return Path.of(dir);
    }

    static void deleteRecursively(Path dir) throws IOException {
        try (Stream<Path> paths = Files.walk(dir)) {
            for (Path path : paths.sorted(Comparator.reverseOrder()).toList()) {
                Files.delete(path);
            }
        }
    }
}
