package dev.pglane.connect.config;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.nio.file.Path;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * A connector's configuration in a file, as the Connect REST API takes it: {@code {"name": ..., "config": {...}}}
 * (POST /connectors) or the bare map (PUT /connectors/&lt;name&gt;/config, which the GET of the same path returns).
 * For the command-line tools that act on what a connector left behind, with the same config the connector ran with.
 */
public final class ConnectorConfigFile {
    private ConnectorConfigFile() {}

    /**
     * The config's keys and values as text; a {@code name} beside {@code config} is the connector's name.
     *
     * @throws IOException if the file cannot be read or is not a JSON object of that shape
     */
    public static Map<String, String> read(Path file) throws IOException {
        JsonNode root = new ObjectMapper().readTree(file.toFile());
        if (root == null || !root.isObject()) {
            throw new IOException(file + " holds no JSON object");
        }
        JsonNode config = root.has("config") ? root.get("config") : root;
        if (!config.isObject()) {
            throw new IOException(file + ": \"config\" is not a JSON object");
        }
        Map<String, String> props = new LinkedHashMap<>();
        for (Iterator<Map.Entry<String, JsonNode>> fields = config.fields(); fields.hasNext(); ) {
            Map.Entry<String, JsonNode> field = fields.next();
            if (!field.getValue().isValueNode() || field.getValue().isNull()) {
                throw new IOException(file + ": the value of \"" + field.getKey() + "\" is not a string");
            }
            props.put(field.getKey(), field.getValue().asText());
        }
        if (root != config && root.hasNonNull("name")) {
            props.putIfAbsent("name", root.get("name").asText());
        }
        return props;
    }
}
