package dev.pglane.it;

import dev.pglane.it.stack.ConnectNode;
import dev.pglane.it.stack.ConnectRestClient;
import dev.pglane.it.stack.KafkaNode;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * A broker and a Connect worker that load the packaged pglane plugins, shared by the tests of one class: starting
 * them is most of an integration test's cost, and the tests only add connectors or validate configs.
 */
public final class WorkerFixture implements AutoCloseable {
    private final KafkaNode kafka;
    private final ConnectNode connect;

    private WorkerFixture(KafkaNode kafka, ConnectNode connect) {
        this.kafka = kafka;
        this.connect = connect;
    }

    public static WorkerFixture start(Path workDir) {
        KafkaNode kafka = KafkaNode.start(workDir);
        try {
            return new WorkerFixture(kafka, ConnectNode.start(kafka.bootstrapServers(), pluginPath()));
        } catch (RuntimeException e) {
            kafka.close();
            throw e;
        }
    }

    /** The {@code plugin.path} the build laid out from the packaged plugins (failsafe passes it). */
    public static Path pluginPath() {
        String dir = System.getProperty("pglane.plugin.path");
        if (dir == null || !Files.isDirectory(Path.of(dir, "pglane-source"))) {
            throw new IllegalStateException("pglane.plugin.path is not a plugin.path with pglane-source/: " + dir
                    + " (run the tests through mvn verify)");
        }
        return Path.of(dir);
    }

    public ConnectRestClient rest() {
        return connect.rest();
    }

    public String bootstrapServers() {
        return kafka.bootstrapServers();
    }

    /** The worker first, then the broker: a worker whose broker is gone waits out its client timeouts. */
    @Override
    public void close() {
        try {
            connect.close();
        } finally {
            kafka.close();
        }
    }
}
