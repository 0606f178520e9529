package dev.pglane.local.cli;

import dev.pglane.local.pipeline.CatchUp;
import dev.pglane.local.pipeline.Pipeline;
import dev.pglane.local.stack.ConnectRestClient;
import dev.pglane.local.stack.ConnectorConfigs;
import dev.pglane.local.stack.ConnectorStatus;
import dev.pglane.local.stack.Endpoints;
import dev.pglane.local.stack.LocalStack;
import dev.pglane.local.stack.PostgresVersion;
import dev.pglane.local.stack.RegistryNode;
import dev.pglane.local.verify.ComparisonReport;
import dev.pglane.local.verify.DatabaseComparator;
import dev.pglane.local.watch.AttachedJvm;
import dev.pglane.local.watch.ConnectorMetricsReader;
import dev.pglane.local.watch.ViewOutput;
import dev.pglane.local.watch.Watcher;
import dev.pglane.local.workload.Pgbench;
import java.io.FileOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.SQLException;
import java.time.Duration;
import java.util.HashMap;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.CountDownLatch;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The Java half of {@code ./pglane-local}: the script manages the process (background, pid, log), this class runs
 * the stack and answers questions about it.
 *
 * <pre>
 * up     --work-dir DIR --endpoints-file FILE --plugin-path DIR [--no-connectors] [--pg-version N] [--format F]
 *        [--metrics-port N]     (the script runs the JVM with the JMX exporter agent on N; this names it in the endpoints)
 * verify --endpoints-file FILE [--wait-for-catch-up SECONDS]
 *                                   exit 0 equal, 1 different (or not caught up), 2 usage or connection error
 * status --endpoints-file FILE      exit 0 all connectors running, 1 not, 2 worker unreachable
 * demo   --work-dir DIR --plugin-path DIR [--seconds N] [--workers N] [--pg-version N] [--pgbench PATH] [--format F]
 *        [--rate N|max] [--log-file FILE] [--console FILE] [--view live|plain]
 *                                   exit 0 the target equals the source afterwards, 1 not
 * watch  --endpoints-file FILE --pid PID [--console FILE] [--view live|plain]
 *                                   the live view of the stack in process PID, until Ctrl-C; exit 1 if it stops
 * </pre>
 *
 * <p>{@code --console} is where a person reads (the script passes the terminal, its own output going to a log);
 * {@code --view live} redraws in place, for a terminal, {@code plain} writes a line every few seconds.
 */
public final class PglaneLocal {
    private static final Logger log = LoggerFactory.getLogger(PglaneLocal.class);
    static final int EXIT_OK = 0;
    /** verify: the databases differ; status: a connector is not running; up: the stack did not start. */
    static final int EXIT_FAILURE = 1;
    /** A bad command line, or nothing to talk to. */
    static final int EXIT_USAGE = 2;
    /** Without a terminal, the view writes one line per this many frames: every five seconds. */
    private static final int PLAIN_EVERY_FRAMES = 5;
    /**
     * The demo's load, transactions a second: what this 2-core machine sustains beside the whole pipeline with room to
     * spare (docs/benchmarks.md gives the measurement).
     */
    static final int DEMO_RATE = 400;

    private PglaneLocal() {}

    public static void main(String[] args) {
        int exitCode;
        try {
            exitCode = run(args);
        } catch (IllegalArgumentException e) {
            System.err.println("pglane-local: " + e.getMessage());
            exitCode = EXIT_USAGE;
        } catch (Exception e) {
            log.error("pglane-local {} failed", args[0], e);
            exitCode = EXIT_FAILURE;
        }
        System.exit(exitCode);
    }

    static int run(String[] args) throws Exception {
        if (args.length == 0) {
            throw new UsageException("a command is required: up, verify, status, demo or watch");
        }
        String command = args[0];
        Map<String, String> options = parseOptions(List.of(args).subList(1, args.length));
        switch (command) {
            case "up":
                return up(options);
            case "verify":
                return verify(endpoints(options), catchUpTimeout(options));
            case "status":
                return status(endpoints(options));
            case "demo":
                return demo(options);
            case "watch":
                return watch(endpoints(options), options);
            default:
                throw new UsageException("unknown command '" + command + "'");
        }
    }

    /** Runs the stack until SIGTERM; writes the endpoints file only once every part is ready. */
    private static int up(Map<String, String> options) {
        Path endpointsFile = Path.of(required(options, "--endpoints-file"));
        Integer metricsPort = options.containsKey("--metrics-port")
                ? positive(options.get("--metrics-port"), "--metrics-port")
                : null;
        LocalStack stack = new LocalStack(new LocalStack.Options(
                options.containsKey("--pg-version")
                        ? PostgresVersion.parse(options.get("--pg-version"))
                        : PostgresVersion.fromProperty(),
                Path.of(required(options, "--work-dir")),
                Path.of(required(options, "--plugin-path")),
                !options.containsKey("--no-connectors"),
                avro(options)));
        Runtime.getRuntime()
                .addShutdownHook(new Thread(
                        () -> {
                            // first, so that nobody takes a stopping stack for a running one
                            deleteIfExists(endpointsFile);
                            stack.close();
                        },
                        "pglane-local-shutdown"));
        try {
            stack.start();
        } catch (RuntimeException e) {
            log.error("the stack did not start", e);
            return EXIT_FAILURE;
        }
        Endpoints endpoints = stack.endpoints();
        if (metricsPort != null) {
            endpoints = endpoints.withMetricsPort(metricsPort);
        }
        endpoints.write(endpointsFile);
        log.info("endpoints written to {}:\n{}", endpointsFile, endpoints.toJson());
        if (stack.registryUrl() != null) {
            log.info("the connectors write Avro through the schema registry at {}", stack.registryUrl());
        }
        awaitTermination();
        return EXIT_OK;
    }

    private static int verify(Endpoints endpoints, Duration catchUpTimeout) {
        try {
            if (catchUpTimeout != null && !awaitCatchUp(endpoints, catchUpTimeout)) {
                return EXIT_FAILURE;
            }
            ComparisonReport report =
                    new DatabaseComparator(endpoints.sourceJdbcUrl(), endpoints.targetJdbcUrl()).compare();
            System.out.println(report.summary());
            return report.isEqual() ? EXIT_OK : EXIT_FAILURE;
        } catch (SQLException e) {
            System.err.println("pglane-local verify: cannot compare: " + e.getMessage());
            return EXIT_USAGE;
        }
    }

    /** Waits until the sink has applied what the source had committed; false (and why, printed) if it did not. */
    private static boolean awaitCatchUp(Endpoints endpoints, Duration timeout) throws SQLException {
        ConnectRestClient rest = new ConnectRestClient(endpoints.connectRestUrl());
        Pipeline pipeline;
        try {
            pipeline = Pipeline.ofStack(endpoints, rest);
        } catch (IllegalStateException e) {
            throw new UsageException("cannot wait for the sink: " + e.getMessage());
        }
        try {
            CatchUp.Result result = CatchUp.unlessFailed(pipeline, rest, endpoints.sourceConnector())
                    .await(timeout);
            System.out.printf(
                    "caught up in %.1f s: %s; the sink's progress: %s%n",
                    result.waited().toMillis() / 1000.0, result.committed(), result.progress());
            return true;
        } catch (IllegalStateException e) {
            System.out.println("not caught up: " + e.getMessage());
            return false;
        }
    }

    private static Duration catchUpTimeout(Map<String, String> options) {
        String seconds = options.get("--wait-for-catch-up");
        return seconds == null ? null : Duration.ofSeconds(positive(seconds, "--wait-for-catch-up"));
    }

    private static int demo(Map<String, String> options) throws Exception {
        Demo.Options demo = new Demo.Options(
                options.containsKey("--pg-version")
                        ? PostgresVersion.parse(options.get("--pg-version"))
                        : PostgresVersion.fromProperty(),
                Path.of(required(options, "--work-dir")),
                Path.of(required(options, "--plugin-path")),
                Duration.ofSeconds(positive(options.getOrDefault("--seconds", "30"), "--seconds")),
                positive(options.getOrDefault("--workers", "4"), "--workers"),
                Path.of(options.getOrDefault("--pgbench", Pgbench.DEFAULT_EXECUTABLE.toString())),
                // Avro unless asked otherwise, or unless no Java runs the registry (the demo says so)
                options.containsKey("--format") ? avro(options) : RegistryNode.canRun(),
                rate(options.getOrDefault("--rate", Integer.toString(DEMO_RATE))),
                Path.of(options.getOrDefault("--log-file", "standard output")));
        return new Demo(demo, console(options)).run();
    }

    /** The live view of a stack that runs in another JVM, read from its MBeans until Ctrl-C or until it stops. */
    private static int watch(Endpoints endpoints, Map<String, String> options) throws Exception {
        long pid = positive(required(options, "--pid"), "--pid");
        ViewOutput console = console(options);
        if (endpoints.sinkConnector() == null || endpoints.sourceConnector() == null) {
            throw new UsageException(
                    "the stack has no connectors to watch (it was started with --no-connectors and has not one pglane"
                            + " source and one sink since)");
        }
        int workers = Integer.parseInt(new ConnectRestClient(endpoints.connectRestUrl())
                .connectorConfig(endpoints.sinkConnector())
                .getOrDefault("apply.workers", "0"));
        try (AttachedJvm stack = AttachedJvm.attach(pid)) {
            ConnectorMetricsReader metrics = new ConnectorMetricsReader(
                    stack.mbeans(), endpoints.sourceConnector(), endpoints.sinkConnector(), workers);
            Watcher watcher = Watcher.start(metrics, console, () -> "watching the stack (Ctrl-C stops watching)");
            Runtime.getRuntime()
                    .addShutdownHook(new Thread(
                            () -> {
                                watcher.close();
                                console.message("watch: stopped watching; the stack keeps running"
                                        + " (./pglane-local down stops it)");
                            },
                            "pglane-watch-shutdown"));
            IOException lost = watcher.awaitLost();
            if (lost == null) {
                return EXIT_OK; // Ctrl-C: the shutdown hook closed the watcher and said so
            }
            console.message("watch: the stack went away: " + lost.getMessage());
            return EXIT_FAILURE;
        }
    }

    /** The person's screen: the file {@code --console} names (the terminal, from the script), or standard output. */
    private static ViewOutput console(Map<String, String> options) throws IOException {
        String view = options.getOrDefault("--view", "plain");
        if (!view.equals("live") && !view.equals("plain")) {
            throw new UsageException("--view must be live or plain: " + view);
        }
        String file = options.get("--console");
        // appending: a terminal ignores it, and a file the console was redirected to is not truncated
        PrintStream out = file == null
                ? System.out
                : new PrintStream(new FileOutputStream(file, true), true, StandardCharsets.UTF_8);
        return ViewOutput.of(out, view.equals("live"), PLAIN_EVERY_FRAMES);
    }

    /** {@code --rate}: transactions a second, or {@code max} (0): as fast as the clients can. */
    private static int rate(String value) {
        return value.equals("max") ? 0 : positive(value, "--rate");
    }

    /** {@code --format avro}: Avro through a schema registry the stack starts; {@code json} (the default) otherwise. */
    private static boolean avro(Map<String, String> options) {
        String format = options.getOrDefault("--format", "json");
        if (!format.equals("json") && !format.equals("avro")) {
            throw new UsageException("--format must be json or avro: " + format);
        }
        return format.equals("avro");
    }

    private static int positive(String value, String option) {
        try {
            int number = Integer.parseInt(value);
            if (number > 0) {
                return number;
            }
        } catch (NumberFormatException e) {
            // reported below with the option's name
        }
        throw new UsageException(option + " takes a positive whole number, not '" + value + "'");
    }

    private static int status(Endpoints endpoints) {
        List<String> connectors = Stream.of(endpoints.sourceConnector(), endpoints.sinkConnector())
                .filter(Objects::nonNull)
                .collect(Collectors.toList());
        if (connectors.isEmpty()) {
            System.out.println("no connectors: the stack was started with --no-connectors and none was created since");
            return EXIT_OK;
        }
        ConnectRestClient rest = new ConnectRestClient(endpoints.connectRestUrl());
        boolean allRunning = true;
        try {
            for (String name : connectors) {
                ConnectorStatus status = rest.status(name);
                System.out.println(status.describe());
                allRunning &= status.isRunning();
            }
        } catch (RuntimeException e) {
            System.err.println("pglane-local status: Connect at " + endpoints.connectRestUrl() + " did not answer: "
                    + e.getMessage());
            return EXIT_USAGE;
        }
        return allRunning ? EXIT_OK : EXIT_FAILURE;
    }

    private static void awaitTermination() {
        try {
            // nothing counts this down: the JVM ends on SIGTERM, after the shutdown hook has closed the stack
            new CountDownLatch(1).await();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    private static Map<String, String> parseOptions(List<String> args) {
        Map<String, String> options = new HashMap<>();
        Iterator<String> it = args.iterator();
        while (it.hasNext()) {
            String option = it.next();
            if (option.equals("--no-connectors")) {
                options.put(option, "true");
            } else if (option.startsWith("--") && it.hasNext()) {
                options.put(option, it.next());
            } else {
                throw new UsageException("unexpected argument '" + option + "'");
            }
        }
        return options;
    }

    private static String required(Map<String, String> options, String option) {
        String value = options.get(option);
        if (value == null) {
            throw new UsageException(option + " is required");
        }
        return value;
    }

    private static Endpoints endpoints(Map<String, String> options) {
        Path file = Path.of(required(options, "--endpoints-file"));
        if (!Files.isRegularFile(file)) {
            throw new UsageException("no stack endpoints at " + file + " (is the stack up?)");
        }
        Endpoints endpoints = Endpoints.read(file);
        return endpoints.sourceConnector() == null ? withConnectorsCreatedSince(endpoints) : endpoints;
    }

    /**
     * A stack started without connectors, with those created on its worker since (by the getting-started guide's
     * commands, say) when it runs one pglane source and one sink; otherwise as it is.
     */
    private static Endpoints withConnectorsCreatedSince(Endpoints endpoints) {
        ConnectRestClient rest = new ConnectRestClient(endpoints.connectRestUrl());
        try {
            List<String> sources = rest.connectorsOfClass(ConnectorConfigs.SOURCE_CLASS);
            List<String> sinks = rest.connectorsOfClass(ConnectorConfigs.SINK_CLASS);
            if (sources.size() == 1 && sinks.size() == 1) {
                return endpoints.withConnectors(sources.get(0), sinks.get(0));
            }
        } catch (RuntimeException e) {
            // a worker that does not answer is reported by the command that needs it
            log.debug("cannot list the connectors at {}", endpoints.connectRestUrl(), e);
        }
        return endpoints;
    }

    private static void deleteIfExists(Path file) {
        try {
            Files.deleteIfExists(file);
        } catch (IOException e) {
            // the stack must still be stopped; the script removes the file again after the JVM has gone
            log.warn("cannot delete {}", file, e);
        }
    }

    /** A command line that cannot be run; exit code 2. */
    static final class UsageException extends IllegalArgumentException {
        UsageException(String message) {
            super(message);
        }
    }
}
