package dev.pglane.source.signal;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.IOException;

/**
 * A signal that did not come from the signal table (one read from the signal topic) as it travels through the WAL: a
 * transactional logical decoding message with prefix {@value #PREFIX} and JSON content {@code {"connector": <topic
 * prefix>, "id": ..., "type": ..., "data": ...}}, sealed by the connector. Every connector on the database sees it;
 * only the one it names acts, and only if it configured a signal topic and the seal is its own.
 * Through the WAL a signal takes effect at one point of the stream, and what it changes in the snapshot's progress is
 * stored with that point's offset, exactly as for a row of the signal table.
 *
 * @param data the signal's data as JSON text, or {@code null}
 */
public record SignalMessage(String topicPrefix, String id, String type, String data) {
    public static final String PREFIX = "pglane.signal";
    private static final ObjectMapper JSON = new ObjectMapper();

    public String content() {
        ObjectNode node = JSON.createObjectNode();
        node.put("connector", topicPrefix).put("id", id).put("type", type).put("data", data);
        return node.toString();
    }

    /** @throws IllegalArgumentException naming the problem if {@code content} is not such a message */
    public static SignalMessage parse(String content) {
        JsonNode node;
        try {
            node = JSON.readTree(content);
        } catch (IOException e) {
            throw new IllegalArgumentException("its content is not JSON: " + e.getMessage());
        }
        if (node == null || !node.isObject() || !node.path("connector").isTextual()) {
            throw new IllegalArgumentException("its content names no connector");
        }
        return new SignalMessage(
                node.get("connector").asText(), text(node, "id"), text(node, "type"), text(node, "data"));
    }

    /**
     * The signal it carries.
     *
     * @throws IllegalArgumentException if it is no signal pglane knows, or carries a WHERE condition: whoever can
     *     write the signal topic (or emit a message on the database) must not run SQL text on the source
     */
    public Signal signal() {
        Signal signal = Signal.parse(id, type, data);
        if (signal.hasCondition()) {
            throw new IllegalArgumentException("its additional-conditions hold SQL text, which pglane takes only from"
                    + " the signal table, never from the signal topic; give a key range (key-ranges) instead");
        }
        return signal;
    }

    private static String text(JsonNode node, String field) {
        JsonNode value = node.get(field);
        return value == null || value.isNull() ? null : value.asText();
    }
}
