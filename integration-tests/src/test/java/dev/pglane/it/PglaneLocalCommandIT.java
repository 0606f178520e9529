package dev.pglane.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.pglane.it.LocalScript.Result;
import dev.pglane.local.stack.ConnectRestClient;
import dev.pglane.local.stack.ConnectorStatus;
import dev.pglane.local.stack.Endpoints;
import dev.pglane.wire.Lsn;
import java.io.IOException;
import java.net.ConnectException;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * A developer runs {@code ./pglane-local up}, works against the endpoints it prints, checks the databases with
 * {@code verify} and stops everything with {@code down}; or runs the whole {@code demo} in one go. The real script,
 * in a state directory of its own ({@code PGLANE_LOCAL_HOME}) so it never meets a developer's running stack.
 */
@Timeout(value = 450, unit = TimeUnit.SECONDS)
class PglaneLocalCommandIT {
    private static final String SOURCE = SharedWorker.SOURCE_CONNECTOR;
    /** The live view going back over its previous frame: cursor up its five lines, erase from there down. */
    private static final String REDRAW = "\033[5F\033[J";

    private static final Pattern APPLIED_LSN = Pattern.compile("sink {4}LSN ([0-9A-F]+/[0-9A-F]+)");
    /** The metric names in a PromQL expression of the dashboard: pglane's and Connect's. */
    private static final Pattern METRIC_NAME = Pattern.compile("\\b(?:pglane|kafka_connect)_[a-z_]+\\b");
    /** The log layout of the stack's log4j configuration: time, level, thread, logger. */
    private static final Pattern LOG_LINE =
            Pattern.compile("\\d{2}:\\d{2}:\\d{2}\\.\\d{3} +(TRACE|DEBUG|INFO|WARN|ERROR) ");

    @RegisterExtension
    final LocalScript script = LocalScript.inNewHome();

    @Test
    @DisplayName("up --no-connectors, verify before and after a source-only row, refuse a second up, down")
    void upVerifyDown() throws Exception {
        Result up = script.run(200, "up", "--no-connectors");
        assertEquals(0, up.exitCode(), up::output);
        assertTrue(up.output().contains("stack up in"), up::output);

        Endpoints endpoints = Endpoints.read(script.home().resolve("endpoints.json"));
        assertAllKeysPresent(script.home().resolve("endpoints.json"));
        assertTrue(
                new ConnectRestClient(endpoints.connectRestUrl())
                        .connectorPlugins().stream().anyMatch(p -> p.className().equals(SOURCE)),
                "the stack's worker does not offer " + SOURCE);
        for (String jdbcUrl : List.of(endpoints.sourceJdbcUrl(), endpoints.targetJdbcUrl())) {
            try (Connection connection = DriverManager.getConnection(jdbcUrl)) {
                assertTrue(connection.isValid(5), jdbcUrl);
            }
        }
        long pid = Long.parseLong(
                Files.readString(script.home().resolve("stack.pid")).trim());

        Result refused = script.run(30, "up", "--no-connectors");
        assertEquals(2, refused.exitCode(), refused::output);
        assertTrue(refused.output().contains("already running"), refused::output);

        Result equal = script.run(60, "verify");
        assertEquals(0, equal.exitCode(), equal::output);

        SqlSession.execute(
                endpoints.sourceJdbcUrl(),
                "CREATE TABLE public.orders (id int PRIMARY KEY, item text);"
                        + " INSERT INTO public.orders VALUES (1, 'only on the source')");
        SqlSession.execute(endpoints.targetJdbcUrl(), "CREATE TABLE public.orders (id int PRIMARY KEY, item text)");
        Result different = script.run(60, "verify");
        assertEquals(1, different.exitCode(), different::output);
        assertTrue(different.output().contains("public.orders: DIFFERENT"), different::output);

        Result down = script.run(90, "down");
        assertEquals(0, down.exitCode(), down::output);
        assertFalse(
                running(pid),
                () -> "stack JVM still alive after down:\n" + down.output() + "\nstack.log ends:\n" + script.logTail());
        for (String address : addresses(endpoints)) {
            assertClosed(address);
        }
        assertFalse(Files.exists(script.home().resolve("endpoints.json")));
    }

    @Test
    @DisplayName("up creates both connectors from config-examples and reports the states Connect reports; with"
            + " --metrics-port their metrics are served in Prometheus format, with every name the dashboard charts")
    void upWithConnectorsReportsTheirStates() throws Exception {
        int metricsPort = freePort();
        Result up = script.run(200, "up", "--metrics-port", Integer.toString(metricsPort));
        assertEquals(0, up.exitCode(), up::output);

        Endpoints endpoints = Endpoints.read(script.home().resolve("endpoints.json"));
        assertEquals("pglane-source", endpoints.sourceConnector());
        assertEquals("pglane-sink", endpoints.sinkConnector());
        assertEquals("http://127.0.0.1:" + metricsPort + "/metrics", endpoints.metricsUrl());
        ConnectRestClient rest = new ConnectRestClient(endpoints.connectRestUrl());
        boolean allRunning = true;
        for (String name : List.of("pglane-source", "pglane-sink")) {
            // whatever Connect says, up and status say the same: a failed task is shown, not hidden
            ConnectorStatus status = rest.status(name);
            assertTrue(up.output().contains(name + ": connector " + status.state()), up::output);
            allRunning &= status.isRunning();
        }
        Result status = script.run(60, "status");
        assertEquals(allRunning ? 0 : 1, status.exitCode(), status::output);
        assertTrue(status.output().contains("pglane-sink: connector "), status::output);
        assertTrue(allRunning, up::output);
        PrometheusScrape before = PrometheusScrape.of(endpoints.metricsUrl());

        // the example sink config does not create tables: the target gets its own, as a subscriber's would
        SqlSession.execute(endpoints.targetJdbcUrl(), "CREATE TABLE public.orders (id int PRIMARY KEY, item text)");
        SqlSession.execute(
                endpoints.sourceJdbcUrl(),
                "CREATE TABLE public.orders (id int PRIMARY KEY, item text);"
                        + " INSERT INTO public.orders SELECT g, 'item ' || g FROM generate_series(1, 100) g;"
                        + " UPDATE public.orders SET item = 'changed' WHERE id <= 10; DELETE FROM public.orders WHERE id > 90");
        // one transaction per row (autocommit), so the counters count twenty transactions
        try (Connection connection = DriverManager.getConnection(endpoints.sourceJdbcUrl());
                PreparedStatement update =
                        connection.prepareStatement("UPDATE public.orders SET item = 'one of many' WHERE id = ?")) {
            for (int id = 11; id <= 30; id++) {
                update.setInt(1, id);
                update.executeUpdate();
            }
        }
        Result verify = script.run(150, "verify", "--wait-for-catch-up=120");
        assertEquals(0, verify.exitCode(), verify::output);
        assertTrue(verify.output().contains("caught up in"), verify::output);
        assertTrue(verify.output().contains("public.orders: equal"), verify::output);
        assertMetricsFollowed(before, PrometheusScrape.of(endpoints.metricsUrl()));

        assertEquals(0, script.run(90, "down").exitCode());
    }

    @Test
    @DisplayName("demo, in a terminal, with its defaults (Avro, a paced load): live view redrawn in place with a"
            + " rising applied LSN, logs only in demo.log, then its figures and verify's table")
    void demo() throws Exception {
        Result demo = script.runInTerminal(400, "demo", "--seconds", "5", "--workers", "2");
        assertEquals(0, demo.exitCode(), demo::output);
        for (String figure : List.of(
                "Avro through a schema registry on the topics",
                "pgbench (2 clients, 300 tx/s) and the mixed workload (2 clients, 100 tx/s)",
                "demo: applied: ",
                " tx/s, ",
                " rows/s ",
                "demo: lag while the workload ran ",
                "p50 ",
                "p99 ",
                "max ",
                "demo: snapshot: the source's existing rows were all on the target ",
                "source and target are equal")) {
            assertTrue(demo.output().contains(figure), () -> "no '" + figure + "' in:\n" + demo.output());
        }
        assertLiveView(demo.output());
        assertLogsOnlyInTheLogFile(demo.output(), script.home().resolve("demo.log"));
        assertFalse(Files.exists(script.home().resolve("stack.pid")), "the demo leaves no stack behind it");
        try (Stream<Path> pidFiles = Files.find(
                script.home().resolve("demo"),
                4,
                (path, attributes) -> path.getFileName().toString().equals("postmaster.pid"))) {
            assertEquals(List.of(), pidFiles.toList(), "the demo's servers are stopped");
        }
    }

    /**
     * Between the two scrapes the source sent and the sink applied the 21 transactions (and their 140 rows): the
     * counters and the applied LSN rose. The lag gauges are there, labelled with their connector, and so is every
     * metric the Grafana dashboard queries.
     */
    private static void assertMetricsFollowed(PrometheusScrape before, PrometheusScrape after) throws IOException {
        for (String counter : List.of(
                "pglane-source:pglane_transactions_total",
                "pglane-source:pglane_records_total",
                "pglane-sink:pglane_transactions_total",
                "pglane-sink:pglane_rows_total",
                "pglane-sink:pglane_applied_lsn",
                "pglane-source:pglane_flushed_lsn",
                "pglane-source:kafka_connect_source_record_write_total")) {
            String connector = counter.substring(0, counter.indexOf(':'));
            String name = counter.substring(connector.length() + 1);
            double was = before.value(name, connector);
            double is = after.value(name, connector);
            assertTrue(is > was, () -> name + "{connector=" + connector + "} did not rise: " + was + " -> " + is);
        }
        double applied = after.value("pglane_transactions_total", "pglane-sink")
                - before.value("pglane_transactions_total", "pglane-sink");
        double rows =
                after.value("pglane_rows_total", "pglane-sink") - before.value("pglane_rows_total", "pglane-sink");
        assertTrue(applied >= 21 && rows >= 140, () -> "applied " + applied + " transactions, " + rows + " rows");
        assertTrue(after.value("pglane_lag_seconds", "pglane-sink") >= 0);
        assertTrue(after.value("pglane_lag_bytes", "pglane-source") >= 0);
        assertEquals(
                1.0,
                after.samples()
                        .get("kafka_connect_task_status{connector=\"pglane-sink\",status=\"running\",task=\"0\"}"));

        String dashboard = Files.readString(LocalScript.REPO.resolve("config-examples/grafana-dashboard.json"));
        Set<String> charted = new TreeSet<>();
        for (JsonNode expr : new ObjectMapper().readTree(dashboard).findValues("expr")) {
            Matcher name = METRIC_NAME.matcher(expr.asText());
            while (name.find()) {
                charted.add(name.group());
            }
        }
        assertTrue(charted.size() >= 20, () -> "the dashboard charts only " + charted);
        Set<String> missing = new TreeSet<>(charted);
        missing.removeAll(after.names());
        assertEquals(Set.of(), missing, "metrics the dashboard charts but the exporter does not serve");
    }

    /** A port nothing listens on now (the exporter binds it a moment later). */
    private static int freePort() throws IOException {
        try (ServerSocket socket = new ServerSocket(0)) {
            return socket.getLocalPort();
        }
    }

    /**
     * Frames drawn over one another (the cursor goes up over the previous frame and erases below it), several of
     * them, with the sink's applied LSN rising from frame to frame and never going back.
     */
    private static void assertLiveView(String output) {
        assertTrue(output.contains(REDRAW), () -> "the view never redrew in place:\n" + output);
        List<Lsn> applied = new ArrayList<>();
        Matcher sink = APPLIED_LSN.matcher(output);
        while (sink.find()) {
            applied.add(Lsn.parse(sink.group(1)));
        }
        assertTrue(applied.size() >= 3, () -> "fewer than 3 frames:\n" + output);
        for (int i = 1; i < applied.size(); i++) {
            assertTrue(applied.get(i).compareTo(applied.get(i - 1)) >= 0, "applied LSN went back: " + applied);
        }
        assertTrue(applied.stream().distinct().count() >= 3, () -> "the applied LSN rose less than twice: " + applied);
    }

    /** What the servers, the broker and the worker log is in the log file; not a line of it on the terminal. */
    private static void assertLogsOnlyInTheLogFile(String terminal, Path logFile) throws IOException {
        List<String> leaked =
                terminal.lines().filter(line -> LOG_LINE.matcher(line).find()).toList();
        assertEquals(List.of(), leaked, "log lines on the terminal");
        String log = Files.readString(logFile);
        assertTrue(LOG_LINE.matcher(log).find() && log.contains("stack ready in"), () -> "no log in " + logFile);
    }

    private static void assertAllKeysPresent(Path endpointsFile) throws IOException {
        JsonNode json = new ObjectMapper().readTree(endpointsFile.toFile());
        Set<String> keys = Set.of(
                "sourceJdbcUrl",
                "targetJdbcUrl",
                "bootstrapServers",
                "connectRestUrl",
                "sourceConnector",
                "sinkConnector");
        List<String> present = new ArrayList<>();
        json.fieldNames().forEachRemaining(present::add);
        assertEquals(keys, Set.copyOf(present));
    }

    private static List<String> addresses(Endpoints endpoints) {
        URI rest = URI.create(endpoints.connectRestUrl());
        return List.of(
                rest.getHost() + ":" + rest.getPort(),
                endpoints.bootstrapServers(),
                hostPort(endpoints.sourceJdbcUrl()),
                hostPort(endpoints.targetJdbcUrl()));
    }

    private static String hostPort(String jdbcUrl) {
        URI uri = URI.create(jdbcUrl.substring("jdbc:".length()));
        return uri.getHost() + ":" + uri.getPort();
    }

    private static void assertClosed(String hostPort) {
        String[] parts = hostPort.split(":");
        try (Socket socket = new Socket()) {
            socket.connect(new InetSocketAddress(parts[0], Integer.parseInt(parts[1])), 2000);
            throw new AssertionError(hostPort + " still accepts connections after down");
        } catch (ConnectException expected) {
            // refused: nothing listens any more
        } catch (IOException e) {
            throw new AssertionError("probing " + hostPort + " failed oddly", e);
        }
    }

    /** Whether the process runs; a zombie (exited, not yet reaped by whoever adopted it) does not. */
    private static boolean running(long pid) throws IOException {
        if (!ProcessHandle.of(pid).map(ProcessHandle::isAlive).orElse(false)) {
            return false;
        }
        Path stat = Path.of("/proc", Long.toString(pid), "stat");
        if (!Files.exists(stat)) {
            return true;
        }
        String line = Files.readString(stat);
        return line.charAt(line.lastIndexOf(')') + 2) != 'Z';
    }
}
