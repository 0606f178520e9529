package dev.pglane.local.kafka;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.PartitionInfo;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;

/** The size of what a source wrote: its change records' keys and values as a consumer receives them, uncompressed. */
public final class TopicBytes {
    private static final Duration TIMEOUT = Duration.ofMinutes(5);

    private TopicBytes() {}

    /** Key and value bytes of every record on the change topics {@code <topicPrefix>.*} (not the marker topic). */
    public static long ofChanges(String bootstrapServers, String topicPrefix) {
        Map<String, Object> config = Map.of(
                ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG,
                bootstrapServers,
                ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG,
                false,
                ConsumerConfig.MAX_POLL_RECORDS_CONFIG,
                10_000);
        try (KafkaConsumer<byte[], byte[]> consumer =
                new KafkaConsumer<>(config, new ByteArrayDeserializer(), new ByteArrayDeserializer())) {
            List<TopicPartition> partitions = new ArrayList<>();
            for (Map.Entry<String, List<PartitionInfo>> topic :
                    consumer.listTopics(Duration.ofSeconds(10)).entrySet()) {
                String name = topic.getKey();
                if (name.startsWith(topicPrefix + ".") && !name.equals(topicPrefix + ".transactions")) {
                    topic.getValue().forEach(p -> partitions.add(new TopicPartition(name, p.partition())));
                }
            }
            consumer.assign(partitions);
            consumer.seekToBeginning(partitions);
            Map<TopicPartition, Long> ends = consumer.endOffsets(partitions);
            long bytes = 0;
            long deadline = System.nanoTime() + TIMEOUT.toNanos();
            while (ends.entrySet().stream().anyMatch(end -> consumer.position(end.getKey()) < end.getValue())) {
                if (System.nanoTime() > deadline) {
                    throw new IllegalStateException("the change topics of " + topicPrefix + " not read in " + TIMEOUT);
                }
                for (ConsumerRecord<byte[], byte[]> record : consumer.poll(Duration.ofMillis(500))) {
                    bytes += Math.max(record.serializedKeySize(), 0) + Math.max(record.serializedValueSize(), 0);
                }
            }
            return bytes;
        }
    }
}
