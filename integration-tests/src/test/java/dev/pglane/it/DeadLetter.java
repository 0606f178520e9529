package dev.pglane.it;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.header.Header;
import org.apache.kafka.common.header.Headers;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;

/**
 * One record of a dead-letter queue, with the position of the original that Connect's context headers
 * ({@code errors.deadletterqueue.context.headers.enable=true}) carry.
 */
record DeadLetter(String topic, int partition, long offset, byte[] value, String error) {
    private static final Duration READ_TIMEOUT = Duration.ofSeconds(30);

    /** Reads the dead-letter topic from its start until {@code expected} records are there or the timeout passes. */
    static List<DeadLetter> readAll(String bootstrapServers, String topic, int expected) {
        Map<String, Object> config = Map.of(
                "bootstrap.servers",
                bootstrapServers,
                "group.id",
                "dead-letters-" + UUID.randomUUID(),
                "auto.offset.reset",
                "earliest");
        List<DeadLetter> letters = new ArrayList<>();
        try (KafkaConsumer<byte[], byte[]> consumer =
                new KafkaConsumer<>(config, new ByteArrayDeserializer(), new ByteArrayDeserializer())) {
            consumer.subscribe(List.of(topic));
            long deadline = System.nanoTime() + READ_TIMEOUT.toNanos();
            while (letters.size() < expected && System.nanoTime() < deadline) {
                for (ConsumerRecord<byte[], byte[]> record : consumer.poll(Duration.ofMillis(500))) {
                    letters.add(of(record));
                }
            }
        }
        return letters;
    }

    private static DeadLetter of(ConsumerRecord<byte[], byte[]> record) {
        Headers headers = record.headers();
        return new DeadLetter(
                header(headers, "__connect.errors.topic"),
                Integer.parseInt(header(headers, "__connect.errors.partition")),
                Long.parseLong(header(headers, "__connect.errors.offset")),
                record.value(),
                header(headers, "__connect.errors.exception.message"));
    }

    private static String header(Headers headers, String key) {
        Header header = headers.lastHeader(key);
        if (header == null) {
            throw new AssertionError("dead letter without the header " + key);
        }
        return new String(header.value(), StandardCharsets.UTF_8);
    }

    @Override
    public String toString() {
        return topic + "-" + partition + "@" + offset + " (" + error + "): "
                + new String(value, StandardCharsets.UTF_8);
    }
}
