package dev.pglane.source.signal;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;

/**
 * A record of the signal topic, as Debezium's Kafka signals look: the key is the topic prefix of the connector it is
 * for, the value {@code {"type": "execute-snapshot", "data": {"data-collections": ["schema.table"]}}}, with an
 * optional {@code "id"} (else the record's partition and offset name it).
 */
public final class KafkaSignal {
    private static final ObjectMapper JSON = new ObjectMapper();

    private KafkaSignal() {}

    /**
     * The message that carries the record's signal into the WAL.
     *
     * @throws IllegalArgumentException naming the problem if the value is no signal pglane knows
     */
    public static SignalMessage of(String topicPrefix, String value, int partition, long offset) {
        JsonNode node;
        try {
            node = value == null ? null : JSON.readTree(value);
        } catch (IOException e) {
            throw new IllegalArgumentException("its value is not JSON: " + e.getMessage());
        }
        if (node == null || !node.isObject()) {
            throw new IllegalArgumentException("its value is no JSON object with a type and data");
        }
        JsonNode id = node.get("id");
        JsonNode data = node.get("data");
        SignalMessage message = new SignalMessage(
                topicPrefix,
                id != null && id.isTextual() ? id.asText() : "kafka-" + partition + "-" + offset,
                node.path("type").asText(null),
                data == null || data.isNull() ? null : data.toString());
        message.signal(); // refuses what the reader would refuse, before it reaches the WAL
        return message;
    }
}
