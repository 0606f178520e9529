package dev.pglane.source.sequences;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.List;

/**
 * The logical decoding messages that carry sequence values through the stream: transactional, so they reach the
 * topics in commit order like any change, with the prefix {@code pglane.sequences.<publication>} (a connector emits
 * only its own) and JSON content, which docs/wire-format.md describes:
 *
 * <pre>{@code {"sequences": [{"schema": "app", "table": "orders", "column": "id", "last_value": 1042}]}}</pre>
 */
public final class SequenceMessages {
    private static final String PREFIX = "pglane.sequences.";
    private static final ObjectMapper JSON = new ObjectMapper();

    private SequenceMessages() {}

    /** The prefix of the messages of the connector that streams {@code publication}. */
    public static String prefixFor(String publication) {
        return PREFIX + publication;
    }

    static String encode(List<SequenceValue> values) {
        ObjectNode root = JSON.createObjectNode();
        ArrayNode sequences = root.putArray("sequences");
        for (SequenceValue value : values) {
            sequences
                    .addObject()
                    .put("schema", value.schema())
                    .put("table", value.table())
                    .put("column", value.column())
                    .put("last_value", value.lastValue());
        }
        try {
            return JSON.writeValueAsString(root);
        } catch (JsonProcessingException e) {
            throw new IllegalStateException("cannot write sequence values as JSON", e);
        }
    }
}
