package dev.pglane.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.pglane.local.kafka.TopicFormat;
import dev.pglane.local.stack.ConnectNode;
import dev.pglane.local.stack.ConnectorPlugin;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** A user drops the two plugin directories on a worker's plugin.path; the worker offers both connectors. */
@Timeout(value = 180, unit = TimeUnit.SECONDS)
class ConnectorPluginsIT {
    private static final String SOURCE = SharedWorker.SOURCE_CONNECTOR;
    private static final String SINK = SharedWorker.SINK_CONNECTOR;

    @RegisterExtension
    static final SharedWorker worker = new SharedWorker();

    @Test
    @DisplayName("GET /connector-plugins lists the source and the sink with the project's version")
    void workerListsBothConnectors() {
        List<ConnectorPlugin> plugins = worker.rest().connectorPlugins();
        String version = System.getProperty("pglane.project.version", "0.1.0-SNAPSHOT");

        assertEquals(
                List.of(new ConnectorPlugin(SOURCE, "source", version)),
                only(plugins, SOURCE),
                () -> "offered: " + plugins);
        assertEquals(
                List.of(new ConnectorPlugin(SINK, "sink", version)), only(plugins, SINK), () -> "offered: " + plugins);
    }

    @ParameterizedTest(name = "{0}")
    @ValueSource(strings = {"pglane-source", "pglane-sink"})
    @DisplayName("each plugin directory carries its manifest and the project's licence, the repository's LICENSE")
    void eachPluginCarriesTheLicence(String plugin) throws IOException {
        Path dir = SharedWorker.pluginPath().resolve(plugin);
        assertTrue(Files.isRegularFile(dir.resolve("manifest.json")), dir + " has manifest.json");
        String licence = Files.readString(dir.resolve("doc").resolve("LICENSE"));
        assertTrue(licence.contains("Apache License") && licence.contains("Version 2.0, January 2004"), licence);
        assertEquals(Files.readString(Path.of("..", "LICENSE")), licence, "the repository's LICENSE");
    }

    @ParameterizedTest(name = "{0}")
    @ValueSource(strings = {ConnectNode.PGLANE_JSON_CONVERTER, TopicFormat.AVRO_CONVERTER})
    @DisplayName(
            "the worker offers the converters the plugins ship, pglane's JSON and Apicurio's Avro, from plugin.path")
    void workerListsTheConverters(String converter) {
        List<ConnectorPlugin> plugins = worker.rest().allPlugins();
        assertEquals(
                List.of("converter"),
                only(plugins, converter).stream()
                        .map(ConnectorPlugin::type)
                        .distinct()
                        .toList(),
                () -> "offered: " + plugins);
    }

    @Test
    @DisplayName("the connectors come from plugin.path: the test classpath cannot load them")
    void connectorsAreNotOnTheTestClasspath() {
        // had they been on the classpath, the worker would have loaded that copy and the packaging would be untested
        assertThrows(ClassNotFoundException.class, () -> Class.forName(SOURCE));
        assertThrows(ClassNotFoundException.class, () -> Class.forName(SINK));
    }

    private static List<ConnectorPlugin> only(List<ConnectorPlugin> plugins, String className) {
        return plugins.stream().filter(p -> p.className().equals(className)).toList();
    }
}
