package dev.pglane.local.fault;

import dev.pglane.local.stack.ConnectRestClient;
import dev.pglane.local.stack.ConnectorStatus;
import dev.pglane.local.stack.FreePorts;
import dev.pglane.local.stack.KafkaNode;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * A Connect cluster as users run one: one broker and several distributed workers in one group, each worker in a JVM
 * of its own ({@link ConnectWorkerProcess}) with the plugins on its plugin path, so that any of them can be stopped,
 * killed or cut off while the others take its work over.
 *
 * <p>Each worker reaches the broker only through a {@link TcpProxy} of its own, in front of a broker listener kept for
 * it ({@link KafkaNode.ClientListener}): the broker tells a client the addresses of the listener it came in by, so
 * every connection of that worker (its group membership, its tasks' consumers and producers, its internal topics)
 * goes through the proxy, and {@link #partition} cuts that worker alone off from Kafka. The worker still reaches
 * PostgreSQL, as a worker behind a broken switch would: what its tasks do then is what the fencing must contain. The
 * test's own clients use the broker's shared listener.
 */
public final class ConnectCluster implements AutoCloseable {
    private static final String HOST = "127.0.0.1";

    private final KafkaNode kafka;
    private final List<TcpProxy> routes;
    private final List<ConnectWorkerProcess> workers;

    private ConnectCluster(KafkaNode kafka, List<TcpProxy> routes, List<ConnectWorkerProcess> workers) {
        this.kafka = kafka;
        this.routes = routes;
        this.workers = workers;
    }

    /**
     * Starts the broker and {@code size} workers that load plugins from {@code pluginPath}; returns once every worker
     * is healthy.
     *
     * @param workDir where the broker keeps its log and each worker {@code worker-<n>/worker.log}
     */
    public static ConnectCluster start(Path workDir, Path pluginPath, int size) {
        return start(workDir, pluginPath, size, Map.of());
    }

    /** As {@link #start(Path, Path, int)}, each worker with {@code workerProps} on top of the stack's properties. */
    public static ConnectCluster start(Path workDir, Path pluginPath, int size, Map<String, String> workerProps) {
        List<TcpProxy> routes = new ArrayList<>();
        List<KafkaNode.ClientListener> listeners = new ArrayList<>();
        for (int i = 0; i < size; i++) {
            int port = FreePorts.next();
            TcpProxy route = TcpProxy.start(HOST, port);
            routes.add(route);
            listeners.add(new KafkaNode.ClientListener("WORKER" + i, port, route.port()));
        }
        KafkaNode kafka = null;
        List<ConnectWorkerProcess> workers = new ArrayList<>();
        try {
            kafka = KafkaNode.start(workDir, listeners);
            for (int i = 0; i < size; i++) {
                workers.add(ConnectWorkerProcess.start(
                        listeners.get(i).bootstrapServers(), pluginPath, workDir.resolve("worker-" + i), workerProps));
            }
            return new ConnectCluster(kafka, routes, workers);
        } catch (RuntimeException e) {
            new ConnectCluster(kafka, routes, workers).close();
            throw e;
        }
    }

    /** The workers, in the order they were started; a stopped or killed one keeps its place and its REST port. */
    public List<ConnectWorkerProcess> workers() {
        return List.copyOf(workers);
    }

    /** The broker, whose shared listener the test's own clients use. */
    public KafkaNode kafka() {
        return kafka;
    }

    /**
     * The REST API of a worker that runs and reaches the broker: any member answers for the whole group (it forwards
     * writes to the leader, and reads statuses from the shared status topic).
     */
    public ConnectRestClient rest() {
        for (int i = 0; i < workers.size(); i++) {
            if (workers.get(i).isAlive() && !routes.get(i).isCut()) {
                return workers.get(i).rest();
            }
        }
        throw new IllegalStateException("no worker of the cluster runs and reaches the broker");
    }

    /** The worker that Connect reports runs task {@code task} of {@code connector}, if it is one of this cluster's. */
    public Optional<ConnectWorkerProcess> workerRunning(String connector, int task) {
        ConnectorStatus status = rest().status(connector);
        for (ConnectorStatus.Task reported : status.tasks()) {
            if (reported.id() == task && ConnectorStatus.RUNNING.equals(reported.state())) {
                return workers.stream()
                        .filter(w -> w.workerId().equals(reported.workerId()))
                        .findFirst();
            }
        }
        return Optional.empty();
    }

    /**
     * Waits until task {@code task} of {@code connector} runs on a worker other than {@code previous}, as Connect
     * reports it, and returns that worker.
     */
    public ConnectWorkerProcess awaitTaskMovedFrom(
            String connector, int task, ConnectWorkerProcess previous, Duration timeout) {
        long deadline = System.nanoTime() + timeout.toNanos();
        while (System.nanoTime() < deadline) {
            Optional<ConnectWorkerProcess> now = workerRunning(connector, task);
            if (now.isPresent() && now.get() != previous) {
                return now.get();
            }
            sleepBriefly();
        }
        throw new IllegalStateException(
                "task " + task + " of " + connector + " still does not run on another worker" + " than " + previous
                        + " after " + timeout + ": " + rest().status(connector).describe());
    }

    /** Cuts {@code worker} off from the broker: every connection it has breaks, new ones are refused. */
    public void partition(ConnectWorkerProcess worker) {
        routeOf(worker).cut();
    }

    /** Lets {@code worker} reach the broker again. */
    public void heal(ConnectWorkerProcess worker) {
        routeOf(worker).heal();
    }

    private TcpProxy routeOf(ConnectWorkerProcess worker) {
        int index = workers.indexOf(worker);
        if (index < 0) {
            throw new IllegalArgumentException(worker + " is not a worker of this cluster");
        }
        return routes.get(index);
    }

    private static void sleepBriefly() {
        try {
            Thread.sleep(250);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while waiting for a task to move", e);
        }
    }

    /** The workers first, then the broker: a worker whose broker is gone waits out its client timeouts. */
    @Override
    public void close() {
        for (int i = 0; i < routes.size(); i++) {
            routes.get(i).heal();
        }
        for (ConnectWorkerProcess worker : workers) {
            worker.close();
        }
        if (kafka != null) {
            kafka.close();
        }
        for (TcpProxy route : routes) {
            route.close();
        }
    }

    @Override
    public String toString() {
        return "Connect cluster of " + workers.size() + " workers on " + kafka;
    }
}
