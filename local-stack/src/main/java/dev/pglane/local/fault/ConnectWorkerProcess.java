package dev.pglane.local.fault;

import dev.pglane.local.stack.ConnectNode;
import dev.pglane.local.stack.ConnectRestClient;
import dev.pglane.local.stack.FreePorts;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.connect.cli.ConnectDistributed;
import org.apache.kafka.connect.runtime.Connect;
import org.apache.kafka.connect.runtime.distributed.DistributedHerder;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A Connect distributed worker in a JVM of its own, so that it can be killed the way a crashed machine or the OOM
 * killer ends one: {@link #kill()} sends SIGKILL, no shutdown hook runs, no task is stopped, no offset flushed.
 * {@link #start()} then runs a new process of the same worker: same group, same internal topics, same REST port, so
 * it takes the connectors back from the group.
 *
 * <p>The worker properties are {@link ConnectNode#workerProperties ConnectNode's}, with shorter group timeouts (see
 * {@link #GROUP_TIMEOUTS}). The process runs this class's {@link #main} on this JVM's class path, writes its output
 * to {@code worker.log} in its directory, and exits when its standard input closes, so it does not outlive the
 * process that started it.
 */
public final class ConnectWorkerProcess implements AutoCloseable {
    private static final Logger log = LoggerFactory.getLogger(ConnectWorkerProcess.class);
    private static final Duration READY_TIMEOUT = Duration.ofSeconds(120);
    private static final Duration STOP_TIMEOUT = Duration.ofSeconds(60);

    /**
     * A killed member stays in the group until its session times out (10 s by default), and until then a restarted
     * worker's join waits for it; 6 s is the broker's lowest allowed session timeout. The heartbeat must be well
     * under it.
     */
    static final Map<String, String> GROUP_TIMEOUTS =
            Map.of("session.timeout.ms", "6000", "heartbeat.interval.ms", "1000");

    private final String bootstrapServers;
    private final Path pluginPath;
    private final Path logFile;
    /** Worker properties on top of the stack's, e.g. {@code exactly.once.source.support}. */
    private final Map<String, String> extraProps;

    private final int restPort;
    private final ConnectRestClient rest;
    private Process process;

    private ConnectWorkerProcess(
            String bootstrapServers, Path pluginPath, Path workDir, Map<String, String> extraProps) {
        this.bootstrapServers = bootstrapServers;
        this.pluginPath = pluginPath;
        this.extraProps = Map.copyOf(extraProps);
        this.logFile = workDir.resolve("worker.log");
        this.restPort = FreePorts.next();
        this.rest = new ConnectRestClient("http://127.0.0.1:" + restPort);
    }

    /**
     * Starts a worker process against {@code bootstrapServers} that loads plugins from {@code pluginPath}; returns
     * once it answers {@code GET /health}.
     *
     * @param workDir where the process writes {@code worker.log}
     */
    public static ConnectWorkerProcess start(String bootstrapServers, Path pluginPath, Path workDir) {
        return start(bootstrapServers, pluginPath, workDir, Map.of());
    }

    /** As {@link #start(String, Path, Path)}, with {@code extraProps} on top of the stack's worker properties. */
    public static ConnectWorkerProcess start(
            String bootstrapServers, Path pluginPath, Path workDir, Map<String, String> extraProps) {
        ConnectWorkerProcess worker = new ConnectWorkerProcess(bootstrapServers, pluginPath, workDir, extraProps);
        worker.start();
        return worker;
    }

    /** Starts a new process of this worker (after {@link #kill()} or {@link #stop()}) and waits until it is healthy. */
    public void start() {
        if (isAlive()) {
            throw new IllegalStateException(this + " is running");
        }
        long begin = System.nanoTime();
        List<String> command = new ArrayList<>(List.of(
                Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-Xmx512m",
                "-cp",
                System.getProperty("java.class.path"),
                ConnectWorkerProcess.class.getName(),
                bootstrapServers,
                pluginPath.toAbsolutePath().toString(),
                Integer.toString(restPort)));
        extraProps.forEach((key, value) -> command.add(key + "=" + value));
        try {
            Files.createDirectories(logFile.getParent());
            process = new ProcessBuilder(command)
                    .redirectErrorStream(true)
                    .redirectOutput(ProcessBuilder.Redirect.appendTo(logFile.toFile()))
                    .start();
        } catch (IOException e) {
            throw new UncheckedIOException("cannot start a Connect worker process", e);
        }
        try {
            rest.awaitHealthy(READY_TIMEOUT);
        } catch (RuntimeException e) {
            kill();
            throw new IllegalStateException(this + " did not become healthy; see " + logFile, e);
        }
        log.info("{} started in {} ms", this, (System.nanoTime() - begin) / 1_000_000);
    }

    /** SIGKILL: the worker ends at once, its tasks with it; returns once the process is gone. */
    public void kill() {
        if (process == null) {
            return;
        }
        process.destroyForcibly();
        awaitExit(process, STOP_TIMEOUT);
        log.info("{} killed (pid {})", this, process.pid());
        process = null;
    }

    /**
     * SIGSTOP: every thread of the worker halts where it is, as in a long stop-the-world pause or a stalled VM; its
     * connections stay open and time passes for everyone else. {@link #thaw()} lets it go on.
     */
    public void freeze() {
        signal("STOP");
    }

    /** SIGCONT: a {@link #freeze() frozen} worker goes on from where it halted; nothing happens to a running one. */
    public void thaw() {
        signal("CONT");
    }

    private void signal(String name) {
        if (process == null) {
            throw new IllegalStateException(this + " is not running");
        }
        try {
            Process kill = new ProcessBuilder("kill", "-" + name, Long.toString(process.pid()))
                    .redirectErrorStream(true)
                    .start();
            if (!awaitExit(kill, STOP_TIMEOUT) || kill.exitValue() != 0) {
                throw new IllegalStateException("kill -" + name + " " + process.pid() + " failed: "
                        + new String(kill.getInputStream().readAllBytes(), StandardCharsets.UTF_8));
            }
        } catch (IOException e) {
            throw new UncheckedIOException("cannot signal " + this, e);
        }
        log.info("{} sent SIG{} (pid {})", this, name, process.pid());
    }

    /**
     * SIGTERM: Connect's shutdown hook stops the tasks and leaves the group cleanly; killed if it has not exited
     * within a minute.
     */
    public void stop() {
        if (process == null) {
            return;
        }
        process.destroy();
        if (!awaitExit(process, STOP_TIMEOUT)) {
            log.warn("{} did not stop within {} s; killing it", this, STOP_TIMEOUT.toSeconds());
            kill();
        }
        process = null;
    }

    public boolean isAlive() {
        return process != null && process.isAlive();
    }

    /** The process id, or -1 when no process runs. */
    public long pid() {
        return process == null ? -1 : process.pid();
    }

    /** The REST root, the same for every process of this worker. */
    public String restUrl() {
        return rest.baseUrl();
    }

    public ConnectRestClient rest() {
        return rest;
    }

    /** How Connect names this worker in statuses ({@code worker_id}): its advertised REST host and port. */
    public String workerId() {
        return "127.0.0.1:" + restPort;
    }

    public Path logFile() {
        return logFile;
    }

    @Override
    public void close() {
        stop();
    }

    @Override
    public String toString() {
        return "Connect worker process at " + restUrl();
    }

    private static boolean awaitExit(Process process, Duration timeout) {
        try {
            return process.waitFor(timeout.toMillis(), TimeUnit.MILLISECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while waiting for the worker process to exit", e);
        }
    }

    /**
     * The worker process: {@code <bootstrap servers> <plugin path> <REST port> [<key>=<value>]...}, the pairs being
     * worker properties on top of the stack's. Runs until its standard input
     * closes (its parent is gone) or it is signalled; Connect's shutdown hook stops the worker on SIGTERM and on exit.
     */
    public static void main(String[] args) throws IOException {
        if (args.length < 3) {
            throw new IllegalArgumentException(
                    "usage: ConnectWorkerProcess <bootstrap servers> <plugin path> <port> [<key>=<value>]...");
        }
        Map<String, String> props = ConnectNode.workerProperties(args[0], Path.of(args[1]), Integer.parseInt(args[2]));
        props.putAll(GROUP_TIMEOUTS);
        for (int i = 3; i < args.length; i++) {
            int eq = args[i].indexOf('=');
            props.put(args[i].substring(0, eq), args[i].substring(eq + 1));
        }
        Connect<DistributedHerder> connect = new ConnectDistributed().startConnect(props);
        InputStream parent = System.in;
        while (parent.read() >= 0) {
            // nothing is sent; end of input means the parent has exited
        }
        connect.stop();
        connect.awaitStop();
        System.exit(0);
    }
}
