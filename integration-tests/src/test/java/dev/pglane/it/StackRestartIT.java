package dev.pglane.it;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.pglane.local.stack.KafkaNode;
import dev.pglane.local.stack.PostgresNode;
import dev.pglane.local.stack.PostgresVersion;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.Statement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.apache.kafka.common.serialization.StringSerializer;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/** Fault tests bounce servers and expect them back where they were, with their data. */
@Timeout(value = 120, unit = TimeUnit.SECONDS)
class StackRestartIT {
    @TempDir
    Path workDir;

    @Test
    @DisplayName("a restarted PostgreSQL keeps its port and its rows")
    void postgresRestartKeepsData() throws Exception {
        try (PostgresNode node =
                PostgresNode.start("bounced", PostgresVersion.fromProperty(), workDir, PostgresNode.WalLevel.LOGICAL)) {
            int port = node.port();
            try (Connection connection = node.open();
                    Statement statement = connection.createStatement()) {
                statement.execute("CREATE TABLE kept (id int); INSERT INTO kept VALUES (1), (2)");
            }

            node.restart();

            assertEquals(port, node.port());
            try (Connection connection = node.open();
                    Statement statement = connection.createStatement();
                    ResultSet rs = statement.executeQuery("SELECT count(*), current_setting('wal_level') FROM kept")) {
                rs.next();
                assertEquals(2, rs.getInt(1));
                assertEquals("logical", rs.getString(2));
            }
        }
    }

    @Test
    @DisplayName("a restarted Kafka node keeps its address and its records")
    void kafkaRestartKeepsRecords() {
        try (KafkaNode kafka = KafkaNode.start(workDir)) {
            Map<String, Object> producerConfig = Map.of("bootstrap.servers", kafka.bootstrapServers(), "acks", "all");
            try (KafkaProducer<String, String> producer =
                    new KafkaProducer<>(producerConfig, new StringSerializer(), new StringSerializer())) {
                producer.send(new ProducerRecord<>("bounced", "k", "before restart"));
                producer.flush();
            }

            kafka.restart();

            assertEquals(List.of("before restart"), readAll(kafka.bootstrapServers(), "bounced", 1));
        }
    }

    private static List<String> readAll(String bootstrapServers, String topic, int expected) {
        Map<String, Object> config = Map.of(
                "bootstrap.servers", bootstrapServers, "group.id", "restart-it", "auto.offset.reset", "earliest");
        List<String> values = new ArrayList<>();
        try (KafkaConsumer<String, String> consumer =
                new KafkaConsumer<>(config, new StringDeserializer(), new StringDeserializer())) {
            consumer.subscribe(List.of(topic));
            long deadline = System.nanoTime() + Duration.ofSeconds(60).toNanos();
            while (values.size() < expected && System.nanoTime() < deadline) {
                for (ConsumerRecord<String, String> record : consumer.poll(Duration.ofMillis(500))) {
                    values.add(record.value());
                }
            }
        }
        return values;
    }
}
