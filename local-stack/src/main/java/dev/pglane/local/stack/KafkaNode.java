package dev.pglane.local.stack;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.io.PrintStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Properties;
import kafka.server.KafkaConfig;
import kafka.server.KafkaRaftServer;
import kafka.tools.StorageTool;
import org.apache.kafka.common.Uuid;
import org.apache.kafka.common.utils.Time;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One real KRaft node, broker and controller in one, running inside this JVM.
 *
 * <p>Its ports are chosen once, so {@link #restart()} brings it back on the same address and log directory, the
 * way a restarted broker comes back in production. Everything that defaults to three replicas or fifty partitions is
 * cut to one: there is only one node, and fewer partitions make the first group coordination fast.
 */
public final class KafkaNode implements AutoCloseable {
    private static final Logger log = LoggerFactory.getLogger(KafkaNode.class);
    private static final String HOST = "127.0.0.1";

    private final Path logDir;
    private final Path propertiesFile;
    private final int brokerPort;
    private final int controllerPort;
    private final List<ClientListener> clientListeners;
    private KafkaRaftServer server;

    /**
     * A listener of the broker kept for one client, which the broker advertises at another port: a forwarder there
     * ({@code TcpProxy}) carries the client's every connection, so a test can cut that one client off from the broker
     * while the others go on. A client that bootstraps through a listener is told the addresses of that listener.
     *
     * @param name the listener's name, upper case, unique on the node
     * @param port where the broker listens
     * @param advertisedPort where the client connects, the forwarder's port
     */
    public record ClientListener(String name, int port, int advertisedPort) {
        /** What the client uses as {@code bootstrap.servers}. */
        public String bootstrapServers() {
            return HOST + ":" + advertisedPort;
        }
    }

    private KafkaNode(Path nodeDir, List<ClientListener> clientListeners) {
        this.logDir = nodeDir.resolve("logs");
        this.propertiesFile = nodeDir.resolve("server.properties");
        this.brokerPort = FreePorts.next();
        this.controllerPort = FreePorts.next();
        this.clientListeners = List.copyOf(clientListeners);
    }

    /** Formats a log directory under {@code workDir/kafka} and starts the node on it. */
    public static KafkaNode start(Path workDir) {
        return start(workDir, List.of());
    }

    /** As {@link #start(Path)}, with a listener of its own for each of some clients. */
    public static KafkaNode start(Path workDir, List<ClientListener> clientListeners) {
        KafkaNode node = new KafkaNode(workDir.resolve("kafka"), clientListeners);
        node.format();
        node.startServer();
        return node;
    }

    /** The shared listener, which every client without one of its own uses. */
    public String bootstrapServers() {
        return HOST + ":" + brokerPort;
    }

    /** Shuts the node down cleanly and starts it again on the same ports and log directory. */
    public void restart() {
        long started = System.nanoTime();
        stopServer();
        startServer();
        log.info("Kafka restarted in {}", Timing.since(started));
    }

    private Properties serverProperties() {
        Properties props = new Properties();
        props.put("process.roles", "broker,controller");
        props.put("node.id", "1");
        props.put("controller.quorum.bootstrap.servers", HOST + ":" + controllerPort);
        StringBuilder listeners = new StringBuilder(
                "PLAINTEXT://" + HOST + ":" + brokerPort + ",CONTROLLER://" + HOST + ":" + controllerPort);
        StringBuilder advertised = new StringBuilder("PLAINTEXT://" + bootstrapServers());
        StringBuilder protocols = new StringBuilder("CONTROLLER:PLAINTEXT,PLAINTEXT:PLAINTEXT");
        for (ClientListener client : clientListeners) {
            listeners
                    .append(',')
                    .append(client.name())
                    .append("://")
                    .append(HOST)
                    .append(':')
                    .append(client.port());
            advertised.append(',').append(client.name()).append("://").append(client.bootstrapServers());
            protocols.append(',').append(client.name()).append(":PLAINTEXT");
        }
        props.put("listeners", listeners.toString());
        props.put("advertised.listeners", advertised.toString());
        props.put("controller.listener.names", "CONTROLLER");
        props.put("inter.broker.listener.name", "PLAINTEXT");
        props.put("listener.security.protocol.map", protocols.toString());
        props.put("log.dirs", logDir.toString());
        props.put("offsets.topic.replication.factor", "1");
        props.put("offsets.topic.num.partitions", "1");
        props.put("transaction.state.log.replication.factor", "1");
        props.put("transaction.state.log.min.isr", "1");
        props.put("share.coordinator.state.topic.replication.factor", "1");
        props.put("share.coordinator.state.topic.min.isr", "1");
        props.put("group.initial.rebalance.delay.ms", "0");
        // The cleaner allocates its whole dedupe buffer (128 MiB by default) up front; a dev node needs little.
        props.put("log.cleaner.dedupe.buffer.size", String.valueOf(16 * 1024 * 1024));
        return props;
    }

    private void format() {
        try {
            Files.createDirectories(logDir);
            try (OutputStream out = Files.newOutputStream(propertiesFile)) {
                serverProperties().store(out, "pglane local KRaft node");
            }
        } catch (IOException e) {
            throw new UncheckedIOException("cannot write " + propertiesFile, e);
        }
        ByteArrayOutputStream output = new ByteArrayOutputStream();
        String[] args = {"format", "--standalone", "-t", Uuid.randomUuid().toString(), "-c", propertiesFile.toString()};
        // execute(), not main(): main() exits the JVM when it is done
        int rc = StorageTool.execute(args, new PrintStream(output, true, StandardCharsets.UTF_8));
        if (rc != 0) {
            throw new IllegalStateException("formatting " + logDir + " failed (" + rc + "): " + output);
        }
        log.debug("formatted {}: {}", logDir, output);
    }

    private void startServer() {
        server = new KafkaRaftServer(KafkaConfig.fromProps(serverProperties(), false), Time.SYSTEM);
        server.startup();
    }

    private void stopServer() {
        if (server == null) {
            return;
        }
        server.shutdown();
        server.awaitShutdown();
        server = null;
    }

    /** Shuts the node down cleanly; the log directory stays. */
    @Override
    public void close() {
        stopServer();
    }

    @Override
    public String toString() {
        return "Kafka at " + bootstrapServers();
    }
}
