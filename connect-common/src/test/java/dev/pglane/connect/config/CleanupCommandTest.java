package dev.pglane.connect.config;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.SQLException;
import java.util.Map;
import org.apache.kafka.common.config.ConfigException;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The cleanup commands' frame: the config file's two shapes, and the exit status of every outcome. */
class CleanupCommandTest {
    @TempDir
    Path dir;

    private final ByteArrayOutputStream output = new ByteArrayOutputStream();
    private final PrintStream out = new PrintStream(output, true, StandardCharsets.UTF_8);

    private Path file(String json) throws IOException {
        Path file = dir.resolve("connector.json");
        Files.writeString(file, json);
        return file;
    }

    @Test
    void theConfigIsReadFromEitherShapeOfTheRestApi() throws IOException {
        assertEquals(
                Map.of("name", "pglane-sink", "a", "1", "b", "true"),
                ConnectorConfigFile.read(file("{\"name\": \"pglane-sink\", \"config\": {\"a\": \"1\", \"b\": true}}")));
        assertEquals(Map.of("name", "x", "a", "1"), ConnectorConfigFile.read(file("{\"name\": \"x\", \"a\": \"1\"}")));
    }

    @Test
    void eachOutcomeHasItsExitStatus() throws IOException {
        String[] args = {file("{\"name\": \"s\", \"config\": {\"k\": \"v\"}}").toString()};
        assertEquals(
                0,
                CleanupCommand.run(
                        "Tool", args, out, (props, report) -> props.get("k").equals("v")));
        assertEquals(1, CleanupCommand.run("Tool", args, out, (props, report) -> false));
        assertEquals(1, CleanupCommand.run("Tool", args, out, (props, report) -> {
            throw new SQLException("connection refused");
        }));
        assertTrue(output.toString(StandardCharsets.UTF_8).contains("Tool failed: connection refused"));
        assertEquals(2, CleanupCommand.run("Tool", args, out, (props, report) -> {
            throw new ConfigException("database.host", null, "missing");
        }));
        assertEquals(2, CleanupCommand.run("Tool", new String[] {}, out, (props, report) -> true));
        assertEquals(
                2,
                CleanupCommand.run(
                        "Tool", new String[] {dir.resolve("absent.json").toString()}, out, (props, report) -> true));
        assertEquals(
                2, CleanupCommand.run("Tool", new String[] {file("[1, 2]").toString()}, out, (props, report) -> true));
        assertTrue(output.toString(StandardCharsets.UTF_8).contains("usage: Tool <connector config JSON"));
    }
}
