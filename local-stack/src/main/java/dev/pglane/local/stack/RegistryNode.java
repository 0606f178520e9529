package dev.pglane.local.stack;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A real schema registry: Apicurio Registry 3 as its own process, from the distribution Apicurio publishes on Maven
 * Central (the build unpacks it, see {@link #DISTRIBUTION_PROPERTY}), storing its schemas in an H2 file in its work
 * directory so that a restart keeps them. It serves the Confluent-compatible API ({@link #ccompatUrl()}), which
 * Confluent's clients and serializers speak, and Apicurio's own ({@link #apicurioV2Url()}), which the Apicurio
 * converter the plugins ship speaks; both give the same ids.
 *
 * <p>Apicurio Registry 3 needs Java 21 or newer, more than the build's Java 17: {@link #java()} finds one.
 */
public final class RegistryNode implements AutoCloseable {
    /** The system property naming the unpacked distribution (its {@code quarkus-run.jar}'s directory). */
    public static final String DISTRIBUTION_PROPERTY = "pglane.registry.dir";

    private static final Logger log = LoggerFactory.getLogger(RegistryNode.class);
    private static final String HOST = "127.0.0.1";
    private static final Duration READY_TIMEOUT = Duration.ofSeconds(120);
    private static final Duration STOP_TIMEOUT = Duration.ofSeconds(30);
    private static final int MIN_JAVA = 21;
    /** The group the start-up's warm-up schema goes to, apart from any topic's. */
    public static final String WARMUP_GROUP = "pglane-local-warmup";

    private static final int WARMUP_ROUNDS = 3;
    private static final Pattern CONTENT_ID = Pattern.compile("\"contentId\"\\s*:\\s*(\\d+)");

    private final Path distribution;
    private final Path workDir;
    private final int port;
    private final int managementPort;
    private final HttpClient http = HttpClient.newHttpClient();
    private Process process;

    private RegistryNode(Path distribution, Path workDir) {
        this.distribution = distribution;
        this.workDir = workDir;
        this.port = FreePorts.next();
        this.managementPort = FreePorts.next();
    }

    /** Starts a registry whose schemas and log live in {@code workDir}; returns once it reports ready. */
    public static RegistryNode start(Path workDir) {
        RegistryNode node = new RegistryNode(distribution(), workDir);
        node.start();
        return node;
    }

    /** The Confluent-compatible API, for Confluent-style clients: {@code http://host:port/apis/ccompat/v7}. */
    public String ccompatUrl() {
        return "http://" + HOST + ":" + port + "/apis/ccompat/v7";
    }

    /** Apicurio's v2 API, which the Apicurio 2.x converter and serdes use. */
    public String apicurioV2Url() {
        return "http://" + HOST + ":" + port + "/apis/registry/v2";
    }

    /** Starts the process (again, after {@link #stop()}) and waits until it is ready. */
    public void start() {
        if (process != null && process.isAlive()) {
            throw new IllegalStateException(this + " is running");
        }
        long begin = System.nanoTime();
        Path logFile = workDir.resolve("registry.log");
        List<String> command = List.of(
                java().toString(),
                "-Xmx384m",
                "-Dquarkus.http.host=" + HOST,
                "-Dquarkus.http.port=" + port,
                // HTTP/1.1 only: the JDK client Apicurio's serdes use asks plain-text servers to upgrade to HTTP/2
                // (h2c), and a demo once had a schema lookup wait 30 s for an answer the registry had logged as sent
                "-Dquarkus.http.http2=false",
                "-Dquarkus.management.host=" + HOST,
                "-Dquarkus.management.port=" + managementPort,
                "-Dapicurio.storage.kind=sql",
                "-Dapicurio.storage.sql.kind=h2",
                "-Dapicurio.datasource.url=jdbc:h2:file:"
                        + workDir.resolve("schemas").toAbsolutePath(),
                "-jar",
                distribution.resolve("quarkus-run.jar").toString());
        try {
            Files.createDirectories(workDir);
            process = new ProcessBuilder(command)
                    .redirectErrorStream(true)
                    .redirectOutput(ProcessBuilder.Redirect.appendTo(logFile.toFile()))
                    .start();
        } catch (IOException e) {
            throw new UncheckedIOException("cannot start the schema registry", e);
        }
        awaitReady(logFile);
        long ready = System.nanoTime();
        String firstCalls = warmUp();
        log.info(
                "{} ready in {} ms, then warmed up in {} ms ({})",
                this,
                (ready - begin) / 1_000_000,
                (System.nanoTime() - ready) / 1_000_000,
                firstCalls);
    }

    /**
     * Registers a schema and reads it back by content id a few times, as the serdes do, in a group of its own. A
     * registry that has just started spends over a second on its first registration (measured: 1.1-1.4 s on 2 cores,
     * against tens of milliseconds from the second on): without this the connectors' first records pay it, which no
     * long-running registry makes them pay. It also proves the registry registers and serves schemas, which its
     * health check does not.
     *
     * @return the round trips' times, for the log
     */
    private String warmUp() {
        String base = apicurioV2Url();
        String schema = "{\"type\":\"record\",\"name\":\"Warmup\",\"namespace\":\"dev.pglane.local\","
                + "\"fields\":[{\"name\":\"id\",\"type\":\"long\"}]}";
        List<String> times = new ArrayList<>();
        for (int round = 0; round < WARMUP_ROUNDS; round++) {
            long start = System.nanoTime();
            String created = call(HttpRequest.newBuilder(
                            URI.create(base + "/groups/" + WARMUP_GROUP + "/artifacts?ifExists=RETURN_OR_UPDATE"))
                    .header("Content-Type", "application/json")
                    .header("X-Registry-ArtifactId", "warmup")
                    .header("X-Registry-ArtifactType", "AVRO")
                    .POST(HttpRequest.BodyPublishers.ofString(schema))
                    .build());
            Matcher contentId = CONTENT_ID.matcher(created);
            if (!contentId.find()) {
                throw new IllegalStateException(this + " answered a registration without a content id: " + created);
            }
            call(HttpRequest.newBuilder(URI.create(base + "/ids/contentIds/" + contentId.group(1)))
                    .GET()
                    .build());
            times.add((System.nanoTime() - start) / 1_000_000 + " ms");
        }
        return "registration and lookup: " + String.join(", ", times);
    }

    /** The body of a 2xx answer to {@code request}; anything else fails the start. */
    private String call(HttpRequest request) {
        try {
            HttpResponse<String> response = http.send(request, HttpResponse.BodyHandlers.ofString());
            if (response.statusCode() / 100 != 2) {
                throw new IllegalStateException(this + " answered " + request.method() + " " + request.uri() + " with "
                        + response.statusCode() + ": " + response.body());
            }
            return response.body();
        } catch (IOException e) {
            throw new UncheckedIOException(this + " failed " + request.method() + " " + request.uri(), e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while warming up " + this, e);
        }
    }

    private void awaitReady(Path logFile) {
        URI health = URI.create("http://" + HOST + ":" + managementPort + "/health/ready");
        long deadline = System.nanoTime() + READY_TIMEOUT.toNanos();
        while (System.nanoTime() < deadline) {
            if (!process.isAlive()) {
                throw new IllegalStateException(this + " exited with " + process.exitValue() + "; see " + logFile);
            }
            try {
                HttpResponse<Void> response = http.send(
                        HttpRequest.newBuilder(health)
                                .timeout(Duration.ofSeconds(2))
                                .build(),
                        HttpResponse.BodyHandlers.discarding());
                if (response.statusCode() == 200) {
                    return;
                }
            } catch (IOException notYet) {
                // not listening yet
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new IllegalStateException("interrupted while waiting for " + this, e);
            }
            pause();
        }
        stop();
        throw new IllegalStateException(this + " not ready after " + READY_TIMEOUT.toSeconds() + " s; see " + logFile);
    }

    private static void pause() {
        try {
            Thread.sleep(200);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted", e);
        }
    }

    /** Stops the process (SIGTERM, then SIGKILL after 30 s); its schemas stay in the work directory. */
    public void stop() {
        if (process == null) {
            return;
        }
        process.destroy();
        try {
            if (!process.waitFor(STOP_TIMEOUT.toSeconds(), TimeUnit.SECONDS)) {
                process.destroyForcibly().waitFor();
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            process.destroyForcibly();
        }
        process = null;
    }

    @Override
    public void close() {
        stop();
    }

    /** The unpacked distribution the build laid out, named by {@link #DISTRIBUTION_PROPERTY}. */
    static Path distribution() {
        String dir = System.getProperty(DISTRIBUTION_PROPERTY);
        if (dir == null || !Files.isRegularFile(Path.of(dir, "quarkus-run.jar"))) {
            throw new IllegalStateException(DISTRIBUTION_PROPERTY + " does not name an unpacked Apicurio Registry"
                    + " (quarkus-run.jar): " + dir + " (the local-stack build unpacks it)");
        }
        return Path.of(dir);
    }

    /**
     * A Java of version 21 or newer: {@code PGLANE_REGISTRY_JAVA} if set, else this JVM if new enough, else the newest
     * JDK under {@code /usr/lib/jvm}.
     */
    /** Whether this machine has a Java the registry runs on ({@link #java()}). */
    public static boolean canRun() {
        try {
            return Files.isExecutable(java());
        } catch (IllegalStateException e) {
            return false;
        }
    }

    static Path java() {
        String configured = System.getenv("PGLANE_REGISTRY_JAVA");
        if (configured != null && !configured.isBlank()) {
            return Path.of(configured);
        }
        if (Runtime.version().feature() >= MIN_JAVA) {
            return Path.of(System.getProperty("java.home"), "bin", "java");
        }
        return JavaHomes.newest(Path.of("/usr/lib/jvm"), MIN_JAVA)
                .map(home -> home.resolve("bin").resolve("java"))
                .orElseThrow(() -> new IllegalStateException("Apicurio Registry 3 needs Java " + MIN_JAVA
                        + " or newer, and none is under /usr/lib/jvm: install one or set PGLANE_REGISTRY_JAVA"));
    }

    @Override
    public String toString() {
        return "schema registry on " + HOST + ":" + port;
    }
}
