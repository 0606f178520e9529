package dev.pglane.source.sequences;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.pglane.source.pgoutput.LogicalDecodingMessage;
import dev.pglane.source.seal.MessageSeal;
import java.nio.charset.StandardCharsets;
import java.util.List;

/**
 * The logical decoding messages that carry sequence values through the stream: transactional, so they reach the
 * topics in commit order like any change, with the prefix {@code pglane.sequences.<publication>} (a connector emits
 * only its own) and JSON content, which docs/wire-format.md describes:
 *
 * <pre>{@code {"connector": "shop", "sequences": [{"schema": "app", "table": "orders", "column": "id",
 * "last_value": 1042}]}}</pre>
 *
 * <p>In the WAL the content is sealed ({@code MessageSeal}); the connector named is the topic prefix of the one that
 * wrote it, so that connectors streaming one publication leave each other's values alone. The records carry the
 * content without its seal.
 */
public final class SequenceMessages {
    private static final String PREFIX = "pglane.sequences.";
    private static final ObjectMapper JSON = new ObjectMapper();

    private SequenceMessages() {}

    /** The prefix of the messages of the connector that streams {@code publication}. */
    public static String prefixFor(String publication) {
        return PREFIX + publication;
    }

    static String encode(String connector, List<SequenceValue> values) {
        ObjectNode root = JSON.createObjectNode();
        root.put("connector", connector);
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

    /**
     * The connector's own sequence values without their seal, or {@code null} for a message that does not carry it:
     * another connector's on the same publication, left alone, or a forgery, refused.
     */
    public static byte[] opened(MessageSeal seal, LogicalDecodingMessage message) {
        MessageSeal.Opened opened = seal.open(message.prefix(), message.content());
        if (opened.authentic()) {
            return opened.payload().getBytes(StandardCharsets.UTF_8);
        }
        if (addressedTo(opened.payload(), seal.connector())) {
            seal.refused().unsealed(message.prefix(), message.lsn());
        }
        return null;
    }

    /**
     * Whether {@code payload} claims to be the values of {@code connector}: it names it, or names no connector, or is
     * not such a message at all (so that a forgery cannot pass as another connector's by being malformed).
     */
    static boolean addressedTo(String payload, String connector) {
        try {
            JsonNode named = JSON.readTree(payload).path("connector");
            return !named.isTextual() || named.asText().equals(connector);
        } catch (JsonProcessingException e) {
            return true;
        }
    }
}
