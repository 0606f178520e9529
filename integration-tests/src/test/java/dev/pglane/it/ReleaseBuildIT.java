package dev.pglane.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.pglane.it.LocalScript.Result;
import java.io.IOException;
import java.net.URL;
import java.net.URLClassLoader;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import java.util.zip.ZipEntry;
import java.util.zip.ZipFile;
import org.apache.kafka.connect.connector.Connector;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * {@code mvn -Prelease package}, as a release is built: from a copy of the repository's tracked files (the build of
 * this checkout, whose archives the other tests use, is left alone), offline, the two connector modules and what they
 * need. The archives carry the version without {@code -SNAPSHOT} everywhere a user or Confluent Hub reads it, in the
 * layout Hub expects.
 */
@Timeout(value = 400, unit = TimeUnit.SECONDS)
class ReleaseBuildIT {
    /** This build's version, {@code 0.1.0-SNAPSHOT}; a release drops the suffix. */
    private static final String RELEASE =
            System.getProperty("pglane.project.version", "0.1.0-SNAPSHOT").replace("-SNAPSHOT", "");

    @TempDir
    static Path copy;

    @BeforeAll
    static void buildTheRelease() throws Exception {
        LocalScript shell = new LocalScript(Files.createDirectories(copy.resolve("shell")));
        Result tracked = shell.start(60, List.of("git", "ls-files", "-z"), Map.of(), LocalScript.REPO);
        assertEquals(0, tracked.exitCode(), tracked::output);
        Path tree = copy.resolve("pglane");
        for (String file : tracked.output().split("\0")) {
            if (!file.isEmpty()) {
                Path to = tree.resolve(file);
                Files.createDirectories(to.getParent());
                Files.copy(LocalScript.REPO.resolve(file), to);
            }
        }
        Result build = shell.start(
                330,
                List.of(
                        "mvn",
                        "-B",
                        "-o",
                        "-q",
                        "-Prelease",
                        "package",
                        "-pl",
                        "connect-source,connect-sink",
                        "-am",
                        "-DskipTests",
                        "-DskipITs",
                        "-Dcheckstyle.skip",
                        "-Dspotless.check.skip"),
                Map.of(),
                tree);
        assertEquals(0, build.exitCode(), build::output);
    }

    @ParameterizedTest(name = "{0}")
    @CsvSource({
        "connect-source, pglane-source, dev.pglane.source.PgSourceConnector, source",
        "connect-sink, pglane-sink, dev.pglane.sink.PgSinkConnector, sink"
    })
    @DisplayName("the archive: manifest.json, doc/LICENSE and lib/ under the plugin's directory, the release's version"
            + " in its name, the manifest and version(), and no -SNAPSHOT anywhere")
    void theArchiveIsARelease(String module, String plugin, String connectorClass, String type) throws Exception {
        Path archive = copy.resolve("pglane")
                .resolve(module)
                .resolve("target")
                .resolve("pglane-" + module + "-" + RELEASE + "-plugin.zip");
        assertTrue(Files.isRegularFile(archive), archive + " was not built");
        List<String> entries = new ArrayList<>();
        JsonNode manifest;
        try (ZipFile zip = new ZipFile(archive.toFile())) {
            zip.stream().map(ZipEntry::getName).forEach(entries::add);
            manifest = new ObjectMapper().readTree(zip.getInputStream(zip.getEntry(plugin + "/manifest.json")));
        }
        assertTrue(entries.contains(plugin + "/doc/LICENSE"), () -> "entries: " + entries);
        assertTrue(
                entries.contains(plugin + "/lib/pglane-" + module + "-" + RELEASE + ".jar"),
                () -> "entries: " + entries);
        assertEquals(
                List.of(),
                entries.stream().filter(e -> !e.startsWith(plugin + "/")).toList(),
                "outside the plugin");
        assertEquals(
                List.of(), entries.stream().filter(e -> e.contains("SNAPSHOT")).toList());
        assertEquals(RELEASE, manifest.path("version").asText());
        assertEquals(plugin, manifest.path("name").asText());
        assertEquals(connectorClass, manifest.path("connector_class").asText());
        assertEquals(type, manifest.path("component_types").path(0).asText());

        assertEquals(RELEASE, versionOfThePlugin(archive, plugin, connectorClass));
    }

    /** {@code version()} of the connector loaded from the archive's {@code lib/}, as a worker loads it. */
    private static String versionOfThePlugin(Path archive, String plugin, String connectorClass) throws Exception {
        Path unpacked = Files.createTempDirectory(copy, plugin);
        try (ZipFile zip = new ZipFile(archive.toFile())) {
            for (ZipEntry entry : zip.stream().filter(e -> !e.isDirectory()).toList()) {
                Path to = unpacked.resolve(entry.getName());
                Files.createDirectories(to.getParent());
                Files.copy(zip.getInputStream(entry), to);
            }
        }
        List<URL> jars = new ArrayList<>();
        try (Stream<Path> lib = Files.list(unpacked.resolve(plugin).resolve("lib"))) {
            for (Path jar : lib.toList()) {
                jars.add(jar.toUri().toURL());
            }
        }
        // the test's class path has the Connect API but not the connectors (ConnectorPluginsIT checks that)
        try (URLClassLoader loader =
                new URLClassLoader(jars.toArray(URL[]::new), ReleaseBuildIT.class.getClassLoader())) {
            Connector connector = (Connector) Class.forName(connectorClass, true, loader)
                    .getDeclaredConstructor()
                    .newInstance();
            return connector.version();
        } catch (IOException e) {
            throw new AssertionError("cannot load " + connectorClass + " from " + archive, e);
        }
    }
}
