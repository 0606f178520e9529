package dev.pglane.source.capture;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.IOException;
import java.util.Iterator;
import java.util.Map;
import java.util.TreeMap;

/**
 * The tables a publication sends, as the {@link NewTableWatch} found them, travelling through the WAL to the reader: a
 * transactional logical decoding message with prefix {@value #PREFIX} and JSON content {@code {"connector": <topic
 * prefix>, "tables": {"<oid>": "schema.table", ...}}}, sealed by the connector. Through the WAL the change takes effect at one point of the
 * stream, after the publication changed, and the offsets of that point on carry the new set.
 *
 * @param tables schema.table by OID
 */
public record TablesMessage(String topicPrefix, Map<Long, String> tables) {
    public static final String PREFIX = "pglane.tables";
    private static final ObjectMapper JSON = new ObjectMapper();

    public TablesMessage {
        tables = Map.copyOf(tables);
    }

    public String content() {
        ObjectNode node = JSON.createObjectNode();
        node.put("connector", topicPrefix);
        ObjectNode byOid = node.putObject("tables");
        new TreeMap<>(tables).forEach((oid, name) -> byOid.put(String.valueOf(oid), name));
        return node.toString();
    }

    /** @throws IllegalArgumentException naming the problem if {@code content} is not such a message */
    public static TablesMessage parse(String content) {
        JsonNode node;
        try {
            node = JSON.readTree(content);
        } catch (IOException e) {
            throw new IllegalArgumentException("its content is not JSON: " + e.getMessage());
        }
        if (node == null
                || !node.path("connector").isTextual()
                || !node.path("tables").isObject()) {
            throw new IllegalArgumentException("its content is not {\"connector\": ..., \"tables\": {...}}");
        }
        Map<Long, String> tables = new TreeMap<>();
        Iterator<Map.Entry<String, JsonNode>> entries = node.get("tables").fields();
        while (entries.hasNext()) {
            Map.Entry<String, JsonNode> entry = entries.next();
            try {
                tables.put(Long.parseLong(entry.getKey()), entry.getValue().asText());
            } catch (NumberFormatException e) {
                throw new IllegalArgumentException("'" + entry.getKey() + "' is no OID");
            }
        }
        return new TablesMessage(node.get("connector").asText(), tables);
    }
}
