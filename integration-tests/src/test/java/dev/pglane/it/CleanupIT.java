package dev.pglane.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.ObjectMapper;
import dev.pglane.local.stack.PostgresNode;
import dev.pglane.local.stack.PostgresVersion;
import java.io.File;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/**
 * The cleanup tools after a whole pipeline, run as the README says, in a JVM of their own on Kafka's libraries and the
 * plugin's, with the configs the connectors ran with as Connect's REST API returns them: while the connectors run, both refuse and drop nothing; once they are deleted, the slot, the publication
 * pglane created, the sink's replication origins and its progress row are gone, and a publication of one's own stays.
 */
@Timeout(value = 240, unit = TimeUnit.SECONDS)
class CleanupIT {
    private static final Duration WAIT = Duration.ofSeconds(60);
    private static final Tool SOURCE_CLEANUP = new Tool("pglane-source", "dev.pglane.source.cleanup.SourceCleanup");
    private static final Tool SINK_CLEANUP = new Tool("pglane-sink", "dev.pglane.sink.cleanup.SinkCleanup");

    @RegisterExtension
    static final SharedWorker worker = new SharedWorker();

    @RegisterExtension
    static final SourceServers servers = new SourceServers();

    @TempDir
    Path configs;

    @Test
    @DisplayName("the cleanup tools refuse while the connectors run, then drop the slot, the publication pglane"
            + " created, the sink's origins and its progress row; a publication of one's own stays")
    void cleanupRemovesWhatTheDeletedConnectorsLeft() throws Exception {
        PostgresVersion version = SourceServers.defaultVersion().get(0);
        PostgresNode source = servers.of(version);
        PostgresNode target = servers.targetOf(version);
        String name = "cleanup_pg" + version.major();
        SqlSession.execute(source, "CREATE SCHEMA " + name, "CREATE TABLE " + name + ".items (id int PRIMARY KEY)");
        SqlSession.execute(target, "CREATE SCHEMA " + name);
        try (SinkConnectorRun run =
                SinkConnectorRun.start(worker, source, target, name, Map.of("apply.workers", "2"))) {
            SqlSession.execute(source, "INSERT INTO " + name + ".items SELECT generate_series(1, 10)");
            run.awaitCatchUp(WAIT);
            Path sourceJson = configOf(name);
            Path sinkJson = configOf(run.sinkName());

            Outcome refused = clean(SOURCE_CLEANUP, sourceJson);
            assertEquals(1, refused.status(), refused.output());
            assertTrue(refused.output().contains("Slot " + name + " is in use by process"), refused.output());
            Outcome sinkRefused = clean(SINK_CLEANUP, sinkJson);
            assertEquals(1, sinkRefused.status(), sinkRefused.output());
            assertTrue(sinkRefused.output().contains("is still connected (processes"), sinkRefused.output());
            assertEquals(1L, count(source, "pg_replication_slots WHERE slot_name = '" + name + "'"));
            assertEquals(1L, count(target, "public.pglane_progress WHERE sink_name = '" + run.sinkName() + "'"));

            worker.rest().deleteConnector(run.sinkName());
            worker.rest().deleteConnector(name);
            Waits.until(
                    "the sink's origins are dropped",
                    WAIT,
                    () -> clean(SINK_CLEANUP, sinkJson).status() == 0);
            Waits.until(
                    "the slot is dropped",
                    WAIT,
                    () -> clean(SOURCE_CLEANUP, sourceJson).status() == 0);

            assertEquals(0L, count(source, "pg_replication_slots WHERE slot_name = '" + name + "'"));
            assertEquals(0L, count(source, "pg_publication WHERE pubname = '" + name + "'"), "pglane created it");
            assertTrue(
                    count(target, "pg_replication_origin WHERE roname LIKE 'pglane:apply:%'") >= 2,
                    "the pool's origins, which the two workers applied under, stay for other sinks");
            assertEquals(0L, count(target, "public.pglane_progress WHERE sink_name = '" + run.sinkName() + "'"));
            Outcome again = clean(SOURCE_CLEANUP, sourceJson);
            assertEquals(0, again.status(), again.output());
            assertTrue(again.output().contains("Slot " + name + ": none"), again.output());
        }
    }

    @Test
    @DisplayName("a publication the connector found, not created, is kept when its slot is dropped")
    void aPublicationOfOnesOwnIsKept() throws Exception {
        PostgresVersion version = SourceServers.defaultVersion().get(0);
        PostgresNode source = servers.of(version);
        String name = "cleanup_own_pg" + version.major();
        SqlSession.execute(
                source,
                "CREATE SCHEMA " + name,
                "CREATE TABLE " + name + ".items (id int PRIMARY KEY)",
                "CREATE PUBLICATION " + name + " FOR TABLE " + name + ".items");
        try (SourceConnectorRun run =
                SourceConnectorRun.start(worker, source, name, Map.of("table.include.list", name + "\\..*"))) {
            Path sourceJson = configOf(name);
            worker.rest().deleteConnector(name);
            Waits.until(
                    "the slot is dropped",
                    WAIT,
                    () -> clean(SOURCE_CLEANUP, sourceJson).status() == 0);
            Outcome again = clean(SOURCE_CLEANUP, sourceJson);
            assertTrue(
                    again.output().contains("Kept publication " + name + ": pglane did not create it"), again.output());
            assertEquals(1L, count(source, "pg_publication WHERE pubname = '" + name + "'"));
            assertEquals(0L, count(source, "pg_replication_slots WHERE slot_name = '" + name + "'"));
        }
    }

    /** The connector's config as {@code GET /connectors/<name>/config} returns it, written to a file. */
    private Path configOf(String connector) throws IOException {
        Path file = configs.resolve(connector + ".json");
        Files.writeString(
                file, new ObjectMapper().writeValueAsString(worker.rest().connectorConfig(connector)));
        return file;
    }

    private record Outcome(int status, String output) {}

    /** A cleanup tool: its plugin's directory under plugin.path and its main class. */
    private record Tool(String plugin, String mainClass) {}

    /**
     * Runs {@code tool} on {@code config}: this JVM's class path stands for Kafka's {@code libs/} (it holds the Kafka
     * and Jackson jars a Connect installation has, and no pglane class), the plugin's {@code lib/} adds the rest.
     */
    private static Outcome clean(Tool tool, Path config) throws IOException, InterruptedException {
        String classPath = System.getProperty("java.class.path") + File.pathSeparator
                + SharedWorker.pluginPath().resolve(tool.plugin()).resolve("lib") + File.separator + "*";
        Path java = Path.of(System.getProperty("java.home"), "bin", "java");
        Process process = new ProcessBuilder(
                        List.of(java.toString(), "-cp", classPath, tool.mainClass(), config.toString()))
                .redirectErrorStream(true)
                .start();
        byte[] output = process.getInputStream().readAllBytes();
        assertTrue(process.waitFor(60, TimeUnit.SECONDS), tool + " did not end");
        return new Outcome(process.exitValue(), new String(output, StandardCharsets.UTF_8));
    }

    private static long count(PostgresNode server, String from) throws Exception {
        try (SqlSession session = SqlSession.open(server)) {
            return ((Number) session.queryValue("SELECT count(*) FROM " + from)).longValue();
        }
    }
}
