package dev.pglane.local.stack;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Predicate;

/**
 * The parts of the Connect REST API that the stack, the CLI and the tests use, over plain {@code java.net.http}.
 *
 * <p>Every answer other than 2xx becomes a {@link ConnectRestException} carrying the status and body; a worker that
 * cannot be reached becomes an {@link UncheckedIOException}. Waits poll with a deadline and never hide a failed
 * connector or task: they fail at once with Connect's own trace.
 */
public final class ConnectRestClient {
    private static final Duration POLL_INTERVAL = Duration.ofMillis(250);
    // validate() opens real database connections inside the worker, and Connect itself gives up after 90 s
    private static final Duration REQUEST_TIMEOUT = Duration.ofSeconds(100);
    private static final ObjectMapper JSON = new ObjectMapper();
    // a rebalance of a test cluster settles in seconds; a 409 that outlasts this is a real conflict
    private static final Duration CONFLICT_PATIENCE = Duration.ofSeconds(30);

    private final URI baseUrl;
    private final HttpClient http =
            HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();

    public ConnectRestClient(String baseUrl) {
        this.baseUrl = URI.create(baseUrl.endsWith("/") ? baseUrl : baseUrl + "/");
    }

    public String baseUrl() {
        return baseUrl.toString().replaceAll("/$", "");
    }

    /** {@code GET /connector-plugins}: the connector plugins the worker found. */
    public List<ConnectorPlugin> connectorPlugins() {
        return plugins("connector-plugins");
    }

    /** {@code GET /connector-plugins?connectorsOnly=false}: also converters, transformations and predicates. */
    public List<ConnectorPlugin> allPlugins() {
        return plugins("connector-plugins?connectorsOnly=false");
    }

    private List<ConnectorPlugin> plugins(String path) {
        List<ConnectorPlugin> plugins = new ArrayList<>();
        for (JsonNode plugin : send("GET", path, null)) {
            plugins.add(new ConnectorPlugin(
                    plugin.path("class").asText(),
                    plugin.path("type").asText(),
                    plugin.path("version").asText()));
        }
        return plugins;
    }

    /** {@code PUT /connector-plugins/{class}/config/validate}. */
    public ValidationResult validate(String connectorClass, Map<String, String> config) {
        JsonNode result = send("PUT", "connector-plugins/" + encode(connectorClass) + "/config/validate", config);
        Map<String, List<String>> errors = new LinkedHashMap<>();
        for (JsonNode entry : result.path("configs")) {
            JsonNode value = entry.path("value");
            List<String> messages = new ArrayList<>();
            value.path("errors").forEach(message -> messages.add(message.asText()));
            if (!messages.isEmpty()) {
                errors.put(value.path("name").asText(), List.copyOf(messages));
            }
        }
        return new ValidationResult(connectorClass, result.path("error_count").asInt(), errors);
    }

    /** {@code PUT /connectors/{name}/config}: creates the connector or replaces its config. */
    public void putConnectorConfig(String name, Map<String, String> config) {
        send("PUT", "connectors/" + encode(name) + "/config", config);
    }

    /** {@code GET /connectors?expand=info}: the names of the cluster's connectors of {@code connectorClass}. */
    public List<String> connectorsOfClass(String connectorClass) {
        List<String> names = new ArrayList<>();
        send("GET", "connectors?expand=info", null).properties().forEach(entry -> {
            if (entry.getValue()
                    .path("info")
                    .path("config")
                    .path("connector.class")
                    .asText()
                    .equals(connectorClass)) {
                names.add(entry.getKey());
            }
        });
        return names;
    }

    /** {@code GET /connectors/{name}/config}: the connector's config as it was put. */
    public Map<String, String> connectorConfig(String name) {
        Map<String, String> config = new LinkedHashMap<>();
        send("GET", "connectors/" + encode(name) + "/config", null)
                .properties()
                .forEach(entry -> config.put(entry.getKey(), entry.getValue().asText()));
        return config;
    }

    /** {@code GET /connectors/{name}/offsets}: the offsets the worker stored for a source connector, one per partition. */
    public List<JsonNode> sourceOffsets(String name) {
        List<JsonNode> offsets = new ArrayList<>();
        for (JsonNode entry :
                send("GET", "connectors/" + encode(name) + "/offsets", null).path("offsets")) {
            offsets.add(entry.path("offset"));
        }
        return offsets;
    }

    /** {@code GET /connectors/{name}/status}. */
    public ConnectorStatus status(String name) {
        JsonNode status = send("GET", "connectors/" + encode(name) + "/status", null);
        JsonNode connector = status.path("connector");
        List<ConnectorStatus.Task> tasks = new ArrayList<>();
        for (JsonNode task : status.path("tasks")) {
            tasks.add(new ConnectorStatus.Task(
                    task.path("id").asInt(),
                    task.path("state").asText(),
                    textOrNull(task.path("trace")),
                    task.path("worker_id").asText()));
        }
        return new ConnectorStatus(
                name, connector.path("state").asText(), textOrNull(connector.path("trace")), List.copyOf(tasks));
    }

    /** {@code POST /connectors/{name}/tasks/{task}/restart}: stops the task and starts it again from its offsets. */
    public void restartTask(String name, int task) {
        send("POST", "connectors/" + encode(name) + "/tasks/" + task + "/restart", null);
    }

    /**
     * {@code POST /connectors/{name}/restart?includeTasks=true}: stops the connector and all its tasks and starts them
     * again, each from its committed offsets.
     */
    public void restartConnectorAndTasks(String name) {
        send("POST", "connectors/" + encode(name) + "/restart?includeTasks=true&onlyFailed=false", null);
    }

    /** {@code PUT /connectors/{name}/pause}: the tasks stop taking records until {@link #resume}. */
    public void pause(String name) {
        send("PUT", "connectors/" + encode(name) + "/pause", null);
    }

    /** {@code PUT /connectors/{name}/resume}. */
    public void resume(String name) {
        send("PUT", "connectors/" + encode(name) + "/resume", null);
    }

    /** {@code DELETE /connectors/{name}}. */
    public void deleteConnector(String name) {
        send("DELETE", "connectors/" + encode(name), null);
    }

    /**
     * Waits until the connector and all its tasks run.
     *
     * @throws IllegalStateException at once when the connector or a task fails, or when the deadline passes
     */
    public ConnectorStatus awaitConnectorRunning(String name, Duration timeout) {
        ConnectorStatus status = awaitStatus(name, timeout, s -> s.isRunning() || s.hasFailed());
        if (status == null) {
            throw new IllegalStateException("connector " + name + " is unknown to the worker after " + timeout);
        }
        if (status.hasFailed()) {
            throw new IllegalStateException("connector " + name + " failed: " + status.describe());
        }
        if (!status.isRunning()) {
            throw new IllegalStateException(
                    "connector " + name + " is not running after " + timeout + ": " + status.describe());
        }
        return status;
    }

    /**
     * Waits until Connect has settled the connector: it failed or runs, and so does each of its (at least one) task.
     * Returns the last status seen, or null when the worker does not know the connector by the deadline.
     */
    public ConnectorStatus awaitSettled(String name, Duration timeout) {
        return awaitStatus(name, timeout, ConnectorStatus::isSettled);
    }

    private ConnectorStatus awaitStatus(String name, Duration timeout, Predicate<ConnectorStatus> done) {
        long deadline = System.nanoTime() + timeout.toNanos();
        ConnectorStatus last = null;
        while (System.nanoTime() < deadline) {
            try {
                last = status(name);
                if (done.test(last)) {
                    return last;
                }
            } catch (ConnectRestException e) {
                if (e.status() != 404) {
                    throw e;
                }
            }
            pause();
        }
        return last;
    }

    /** Waits until the worker's {@code GET /health} answers 200: REST is up and the worker has joined its group. */
    public void awaitHealthy(Duration timeout) {
        long deadline = System.nanoTime() + timeout.toNanos();
        RuntimeException last = null;
        while (System.nanoTime() < deadline) {
            try {
                send("GET", "health", null);
                return;
            } catch (ConnectRestException | UncheckedIOException e) {
                last = e;
            }
            pause();
        }
        throw new IllegalStateException("Connect at " + baseUrl() + " is not healthy after " + timeout, last);
    }

    /**
     * One request; a passing conflict is asked again until {@link #CONFLICT_PATIENCE} runs out. Connect answers 409
     * while its group rebalances or a config change is still spreading ("stale configuration"), and means the caller
     * to retry; its other 409s (a connector that already exists) are answers and fail at once.
     */
    private JsonNode send(String method, String path, Object body) {
        long deadline = System.nanoTime() + CONFLICT_PATIENCE.toNanos();
        while (true) {
            try {
                return sendOnce(method, path, body);
            } catch (ConnectRestException e) {
                if (!isPassingConflict(e) || System.nanoTime() > deadline) {
                    throw e;
                }
            }
            pause();
        }
    }

    private static boolean isPassingConflict(ConnectRestException e) {
        return e.status() == 409 && (e.body().contains("rebalance") || e.body().contains("stale configuration"));
    }

    private JsonNode sendOnce(String method, String path, Object body) {
        String request = method + " " + baseUrl.resolve(path);
        try {
            HttpRequest.BodyPublisher publisher = body == null
                    ? HttpRequest.BodyPublishers.noBody()
                    : HttpRequest.BodyPublishers.ofString(JSON.writeValueAsString(body));
            HttpRequest httpRequest = HttpRequest.newBuilder(baseUrl.resolve(path))
                    .method(method, publisher)
                    .header("Content-Type", "application/json")
                    .header("Accept", "application/json")
                    .timeout(REQUEST_TIMEOUT)
                    .build();
            HttpResponse<String> response = http.send(httpRequest, HttpResponse.BodyHandlers.ofString());
            if (response.statusCode() / 100 != 2) {
                throw new ConnectRestException(request, response.statusCode(), response.body());
            }
            return response.body().isEmpty() ? JSON.nullNode() : JSON.readTree(response.body());
        } catch (JsonProcessingException e) {
            throw new IllegalStateException(request + ": unreadable JSON", e);
        } catch (IOException e) {
            throw new UncheckedIOException(request + " failed", e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(request + " interrupted", e);
        }
    }

    private static void pause() {
        try {
            Thread.sleep(POLL_INTERVAL.toMillis());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while waiting on Connect", e);
        }
    }

    private static String encode(String segment) {
        return URLEncoder.encode(segment, StandardCharsets.UTF_8).replace("+", "%20");
    }

    private static String textOrNull(JsonNode node) {
        return node.isMissingNode() || node.isNull() ? null : node.asText();
    }
}
