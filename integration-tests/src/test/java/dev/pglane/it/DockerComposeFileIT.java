package dev.pglane.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;
import java.io.File;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * A user runs {@code docker-compose up -d} after the README's build: the file is valid for Compose, every service but
 * the one-shot job that creates the connectors has a health check, and Connect and that job start only once what they
 * need is healthy, and every port it publishes is bound to 127.0.0.1 (the file is for trying, not production: no
 * service authenticates). No Docker engine is needed: {@code docker-compose config} reads and checks the file alone (the
 * Debian package's docker-compose 1.29, installed here when neither it nor {@code docker compose} is present).
 */
@Timeout(value = 400, unit = TimeUnit.SECONDS)
class DockerComposeFileIT {
    private static final Path ROOT = Path.of(System.getProperty("pglane.repo.root", ".."));
    /** The one-shot job: it runs to its end, so it has nothing to be healthy about. */
    private static final String JOB = "connectors";

    private static List<String> compose;

    @BeforeAll
    static void findOrInstallCompose() throws Exception {
        if (exec(List.of("docker", "compose", "version"), Map.of()).exitCode() == 0) {
            compose = List.of("docker", "compose");
            return;
        }
        if (exec(List.of("docker-compose", "version"), Map.of()).exitCode() != 0) {
            DebianPackage.ensure("docker-compose", Path.of("/usr/bin/docker-compose"));
        }
        compose = List.of("docker-compose");
    }

    @ParameterizedTest(name = "PGLANE_FORMAT={0}")
    @ValueSource(strings = {"json", "avro"})
    @DisplayName("docker-compose.yml is valid; health checks on every long-running service; connect and the connector"
            + " job wait for healthy services; nothing names a version")
    void theComposeFileStartsEachServiceOnceWhatItNeedsIsHealthy(String format) throws Exception {
        Map<String, String> env = Map.of("PGLANE_FORMAT", format);
        Result quiet = compose(env, "config", "-q");
        assertEquals(0, quiet.exitCode(), quiet::output);

        Result config = compose(env, "config");
        assertEquals(0, config.exitCode(), config::output);
        JsonNode services =
                new ObjectMapper(new YAMLFactory()).readTree(config.output()).path("services");
        assertTrue(services.size() >= 6, config::output);

        services.fieldNames().forEachRemaining(name -> {
            JsonNode check = services.path(name).path("healthcheck");
            if (name.equals(JOB)) {
                assertTrue(check.isMissingNode(), JOB + " is a one-shot job: " + check);
            } else {
                assertFalse(check.path("test").isMissingNode(), name + " has no health check:\n" + config.output());
                assertFalse(check.path("disable").asBoolean(false), name + "'s health check is disabled");
            }
        });
        assertEquals(
                Map.of(
                        "kafka", "service_healthy",
                        "postgres-source", "service_healthy",
                        "postgres-target", "service_healthy"),
                conditions(services.path("connect")));
        assertEquals(
                Map.of("connect", "service_healthy", "schema-registry", "service_healthy"),
                conditions(services.path(JOB)));
        assertEquals(
                format,
                services.path(JOB).path("environment").path("PGLANE_FORMAT").asText());

        String file = Files.readString(ROOT.resolve("docker-compose.yml"));
        assertFalse(file.contains("SNAPSHOT"), "docker-compose.yml names the build's version; a release breaks it");
        JsonNode connect = services.path("connect");
        assertTrue(connect.path("environment").path("KAFKA_OPTS").asText().contains("-javaagent:"), connect::toString);
        assertTrue(connect.toString().contains("9404"), "the metrics port is not published: " + connect);
    }

    @ParameterizedTest(name = "PGLANE_FORMAT={0}")
    @ValueSource(strings = {"json", "avro"})
    @DisplayName("every port the file publishes (databases with password pglane, Kafka, Connect's REST API, the"
            + " registry, the metrics, none with authentication) is bound to 127.0.0.1, not every interface")
    void everyPublishedPortIsBoundToLoopbackOnly(String format) throws Exception {
        Result config = compose(Map.of("PGLANE_FORMAT", format), "config");
        assertEquals(0, config.exitCode(), config::output);
        JsonNode services =
                new ObjectMapper(new YAMLFactory()).readTree(config.output()).path("services");
        List<String> published = new ArrayList<>();
        services.fieldNames().forEachRemaining(name -> {
            for (JsonNode port : services.path(name).path("ports")) {
                published.add(name + " " + port);
                assertEquals("127.0.0.1", hostAddress(port), name + " publishes " + port + " on every interface");
            }
        });
        // both databases, Kafka, the registry, Connect's REST API and its metrics
        assertEquals(6, published.size(), published::toString);
    }

    /**
     * The host address a published port is bound to, "" for every interface: Compose v2 writes the long form
     * ({@code host_ip}), docker-compose 1.x the short one ({@code [host_ip:]published:target[/protocol]}).
     */
    private static String hostAddress(JsonNode port) {
        if (port.isTextual()) {
            String[] parts = port.asText().split(":");
            return parts.length == 3 ? parts[0] : "";
        }
        return port.path("host_ip").asText("");
    }

    /** Each service {@code service} depends on, with the condition it waits for. */
    private static Map<String, String> conditions(JsonNode service) {
        Map<String, String> conditions = new TreeMap<>();
        JsonNode dependsOn = service.path("depends_on");
        if (dependsOn.isArray()) { // the short form: started, not healthy
            dependsOn.forEach(name -> conditions.put(name.asText(), "service_started"));
        } else {
            dependsOn
                    .fields()
                    .forEachRemaining(e -> conditions.put(
                            e.getKey(), e.getValue().path("condition").asText("service_started")));
        }
        return conditions;
    }

    private static Result compose(Map<String, String> env, String... args) throws Exception {
        List<String> command = new ArrayList<>(compose);
        command.addAll(List.of("-f", ROOT.resolve("docker-compose.yml").toString()));
        command.addAll(List.of(args));
        return exec(command, env);
    }

    private record Result(int exitCode, String output) {}

    /** Runs {@code command} in the repository's root; exit code 127 when there is no such program. */
    private static Result exec(List<String> command, Map<String, String> env) throws Exception {
        Path output = Files.createTempFile("compose-", ".out");
        try {
            ProcessBuilder builder = new ProcessBuilder(command)
                    .directory(ROOT.toFile())
                    .redirectErrorStream(true)
                    .redirectOutput(output.toFile())
                    .redirectInput(ProcessBuilder.Redirect.from(new File("/dev/null")));
            builder.environment().putAll(env);
            Process process;
            try {
                process = builder.start();
            } catch (IOException noSuchProgram) {
                return new Result(127, noSuchProgram.getMessage());
            }
            if (!process.waitFor(300, TimeUnit.SECONDS)) {
                process.destroyForcibly();
                throw new AssertionError(String.join(" ", command) + " took over 300 s:\n" + Files.readString(output));
            }
            return new Result(process.exitValue(), Files.readString(output));
        } finally {
            Files.deleteIfExists(output);
        }
    }
}
