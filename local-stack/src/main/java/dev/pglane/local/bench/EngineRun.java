package dev.pglane.local.bench;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.pglane.local.bench.engine.NoOpEngine;
import dev.pglane.local.stack.ConnectorConfigs;
import dev.pglane.local.stack.PostgresNode;
import java.io.IOException;
import java.io.Writer;
import java.net.URISyntaxException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.stream.Stream;

/**
 * A source connector catching up on a backlog inside Debezium's engine with a no-op consumer (no converter, no
 * Kafka), in a JVM of its own ({@link NoOpEngine}): pglane's connector from its packaged plugin, or Debezium's
 * PostgreSQL connector, configured as in the reference figures (pgoutput, no transaction metadata, no snapshot). Both
 * run in the same engine and consumer, so the difference is the connector's.
 *
 * <p>The child JVM's class path is the {@code debezium} Maven profile's ({@code target/engine-classpath.txt}, written
 * by {@code ./pglane-local bench}): Debezium's jars beside Kafka's at this build's version, never on the benchmark's
 * own class path. Its CPU is the client CPU of the measurement; the source server's is read around the run.
 */
public final class EngineRun {
    static final String PGLANE = "pglane source -> no-op (Debezium engine)";
    static final String DEBEZIUM = "Debezium 3.6.1.Final -> no-op (engine, txmeta=false)";
    static final String DEBEZIUM_SNAPSHOT = "Debezium 3.6.1.Final initial snapshot -> no-op (engine)";
    static final String PGLANE_SNAPSHOT = "pglane source snapshot -> no-op (Debezium engine)";
    private static final ObjectMapper JSON = new ObjectMapper();

    private final PostgresNode server;
    private final Path engineClasspath;
    private final Path pluginPath;
    private final Path workDir;

    /**
     * @param engineClasspath the file that lists the child JVM's class path
     * @param pluginPath the worker's plugin.path, whose {@code pglane-source/lib} jars run pglane's connector
     */
    public EngineRun(PostgresNode server, Path engineClasspath, Path pluginPath, Path workDir) {
        if (!Files.isReadable(engineClasspath)) {
            throw new IllegalStateException(engineClasspath + " is missing: ./pglane-local bench writes it with mvn"
                    + " -Pdebezium dependency:build-classpath (or pass --skip-engine)");
        }
        this.server = server;
        this.engineClasspath = engineClasspath;
        this.pluginPath = pluginPath;
        this.workDir = workDir;
    }

    Measurement measurePglane(String slot, Backlog.Info backlog, String name) throws Exception {
        Properties config = engineConfig(name);
        config.putAll(ConnectorConfigs.forSource(server, "").load(ConnectorConfigs.SOURCE_JSON));
        config.put("name", name);
        config.put("slot.name", slot);
        config.put("publication.name", Backlog.PUBLICATION);
        config.put("topic.prefix", name);
        config.put("snapshot.mode", "never"); // the backlog is what is measured: its tables' existing rows are not
        // the engine reports each record done, without Kafka's metadata, once the consumer took it
        config.put("commit.requires.kafka", "false");
        return measure(PGLANE, "pglane", config, backlog, pluginJars());
    }

    Measurement measureDebezium(String slot, Backlog.Info backlog, String name) throws Exception {
        Properties config = debeziumConfig(name, server.database(), slot, Backlog.PUBLICATION);
        // stream from the slot's position only, as pg_recvlogical and pglane do
        config.put("snapshot.mode", "no_data");
        return measure(DEBEZIUM, "debezium", config, backlog, List.of());
    }

    /**
     * What Debezium's initial snapshot did.
     *
     * @param seconds from the engine's start until its consumer had the last row
     * @param rows the {@code op = r} records counted
     * @param clientCpu the engine JVM's CPU seconds meanwhile
     * @param sourcePgCpu the source server's CPU seconds over the child's lifetime
     */
    public record SnapshotFigures(double seconds, long rows, double clientCpu, double sourcePgCpu) {}

    /**
     * Debezium's initial snapshot ({@code snapshot.mode=initial_only}, its other snapshot settings at their defaults)
     * of {@code database}'s tables in {@code publication}, into the counting consumer until it has {@code rows} rows.
     */
    public SnapshotFigures measureDebeziumSnapshot(
            String database, String publication, String slot, long rows, String name) throws Exception {
        Properties config = debeziumConfig(name, database, slot, publication);
        config.put("snapshot.mode", "initial_only");
        return measureSnapshot(DEBEZIUM_SNAPSHOT, "debezium", config, rows, List.of());
    }

    /**
     * pglane's snapshot ({@code snapshot.mode=initial_only}, {@code snapshot.threads} as given, its other settings
     * the example config's) of {@code database}'s tables in {@code publication}, in the same engine and counting
     * consumer as {@link #measureDebeziumSnapshot}, so that the two differ only by their connector.
     */
    public SnapshotFigures measurePglaneSnapshot(
            String database, String publication, String slot, long rows, String name, int threads) throws Exception {
        Properties config = engineConfig(name);
        config.putAll(ConnectorConfigs.forSource(server, "").load(ConnectorConfigs.SOURCE_JSON));
        config.put("name", name);
        config.put("database.name", database);
        config.put("slot.name", slot);
        config.put("publication.name", publication);
        config.put("topic.prefix", name);
        config.put("snapshot.mode", "initial_only");
        config.put("snapshot.threads", Integer.toString(threads));
        config.put("commit.requires.kafka", "false");
        return measureSnapshot(PGLANE_SNAPSHOT, "pglane", config, rows, pluginJars());
    }

    private SnapshotFigures measureSnapshot(
            String system, String connector, Properties config, long rows, List<Path> firstOnClasspath)
            throws Exception {
        config.put(NoOpEngine.SNAPSHOT_ROWS, Long.toString(rows));
        Child child = runChild(system, connector, config, firstOnClasspath);
        long counted = child.figures().path("changes").asLong();
        if (counted != rows) {
            throw new IllegalStateException(system + " counted " + counted + " rows; the source has " + rows);
        }
        return new SnapshotFigures(
                child.figures().path("seconds").asDouble(),
                counted,
                child.figures().path("cpu_s").asDouble(),
                child.sourcePgCpu());
    }

    private Properties debeziumConfig(String name, String database, String slot, String publication) {
        Properties config = engineConfig(name);
        config.put("connector.class", "io.debezium.connector.postgresql.PostgresConnector");
        config.put("database.hostname", server.host());
        config.put("database.port", Integer.toString(server.port()));
        config.put("database.user", server.user());
        config.put("database.password", server.password());
        config.put("database.dbname", database);
        config.put("topic.prefix", name);
        config.put("plugin.name", "pgoutput");
        config.put("slot.name", slot);
        config.put("publication.name", publication);
        config.put("publication.autocreate.mode", "disabled");
        config.put("provide.transaction.metadata", "false");
        return config;
    }

    private static Properties engineConfig(String name) {
        Properties config = new Properties();
        config.put("name", name);
        config.put("offset.storage", "org.apache.kafka.connect.storage.MemoryOffsetBackingStore");
        config.put("offset.flush.interval.ms", "10000");
        return config;
    }

    private Measurement measure(
            String system, String connector, Properties config, Backlog.Info backlog, List<Path> firstOnClasspath)
            throws Exception {
        config.put(NoOpEngine.FENCE_XID, Long.toString(backlog.fenceXid()));
        Child child = runChild(system, connector, config, firstOnClasspath);
        JsonNode figures = child.figures();
        long transactions = figures.path("transactions").asLong();
        long changes = figures.path("changes").asLong();
        if (transactions != backlog.transactions() || changes != backlog.changes()) {
            throw new IllegalStateException(system + " counted " + transactions + " transactions with " + changes
                    + " changes; the backlog has " + backlog.transactions() + " with " + backlog.changes());
        }
        return new Measurement(
                system,
                figures.path("seconds").asDouble(),
                transactions,
                changes,
                child.sourcePgCpu(),
                figures.path("cpu_s").asDouble(),
                Map.of(),
                0L);
    }

    /** The child JVM's result (its figures, checked for an error) and the source server's CPU over its life. */
    private record Child(JsonNode figures, double sourcePgCpu) {}

    private Child runChild(String system, String connector, Properties config, List<Path> firstOnClasspath)
            throws Exception {
        config.put(NoOpEngine.CONNECTOR, connector);
        Path properties = workDir.resolve(connector + "-engine.properties");
        Path result = workDir.resolve(connector + "-engine-result.json");
        Path log = workDir.resolve(connector + "-engine.log");
        try (Writer out = Files.newBufferedWriter(properties)) {
            config.store(out, system);
        }
        Files.deleteIfExists(result);
        long pg = ProcCpu.postmasterPid(server.dataDirectory());
        double pgCpu = ProcCpu.serverSeconds(pg);
        List<String> command = new ArrayList<>();
        command.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
        command.add("-Xmx1g");
        command.addAll(extraJvmOptions(connector));
        command.addAll(List.of(
                "-cp",
                classpath(firstOnClasspath),
                NoOpEngine.class.getName(),
                properties.toString(),
                result.toString()));
        Process child = new ProcessBuilder(command)
                .redirectErrorStream(true)
                .redirectOutput(log.toFile())
                .start();
        int rc = child.waitFor();
        Backlog.awaitSlotReleased(server, config.getProperty("slot.name"));
        pgCpu = ProcCpu.serverSeconds(pg) - pgCpu;
        JsonNode figures = Files.exists(result) ? JSON.readTree(result.toFile()) : null;
        if (rc != 0 || figures == null || figures.has("error")) {
            throw new IllegalStateException(system + " failed (exit " + rc + "): "
                    + (figures == null ? "no result" : figures.path("error").asText()) + "; its log: " + tail(log));
        }
        return new Child(figures, pgCpu);
    }

    /**
     * {@code PGLANE_ENGINE_JAVA_OPTS}, words split at spaces, for profiling the engine's JVM (a flight recording, say);
     * {@code {connector}} in them becomes the connector's name, so that each run's recording has a file of its own.
     */
    private static List<String> extraJvmOptions(String connector) {
        String options = System.getenv("PGLANE_ENGINE_JAVA_OPTS");
        if (options == null || options.isBlank()) {
            return List.of();
        }
        return List.of(options.trim().replace("{connector}", connector).split("\\s+"));
    }

    /** The plugin's jars first, so that its own pgjdbc and wire classes win; then the engine's; then this module. */
    private String classpath(List<Path> first) throws IOException, URISyntaxException {
        List<String> entries = new ArrayList<>();
        first.forEach(jar -> entries.add(jar.toString()));
        entries.add(Files.readString(engineClasspath).trim());
        entries.add(Path.of(NoOpEngine.class
                        .getProtectionDomain()
                        .getCodeSource()
                        .getLocation()
                        .toURI())
                .toString());
        return String.join(":", entries);
    }

    private List<Path> pluginJars() throws IOException {
        try (Stream<Path> jars = Files.list(pluginPath.resolve("pglane-source").resolve("lib"))) {
            return jars.filter(jar -> jar.toString().endsWith(".jar")).sorted().toList();
        }
    }

    private static String tail(Path log) throws IOException {
        if (!Files.exists(log)) {
            return "(none)";
        }
        List<String> lines = Files.readAllLines(log);
        return log + ", last lines:\n" + String.join("\n", lines.subList(Math.max(0, lines.size() - 30), lines.size()));
    }
}
