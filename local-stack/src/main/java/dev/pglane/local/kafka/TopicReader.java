package dev.pglane.local.kafka;

import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.BooleanSupplier;
import java.util.function.Consumer;
import java.util.function.Predicate;
import java.util.function.Supplier;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.IsolationLevel;
import org.apache.kafka.common.PartitionInfo;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;

/**
 * Reads every partition of a pglane source's topics from the beginning, in arrival order, as a plain consumer would,
 * and hands each record, decoded, to the caller.
 *
 * <p>Partitions are assigned directly (no consumer group), and the topic list is looked up again every second, so
 * a table's topic that the connector creates while the reader runs is read from its first record too. Records of
 * different partitions interleave in whatever order the broker returns them, exactly the lag a real consumer sees.
 * Not thread-safe: one test thread reads.
 */
public final class TopicReader implements AutoCloseable {
    private static final Duration POLL = Duration.ofMillis(200);
    private static final long REFRESH_NANOS = Duration.ofSeconds(1).toNanos();

    private final KafkaConsumer<byte[], byte[]> consumer;
    private final Predicate<String> topics;
    private final WireDecoder decoder;
    private final Set<TopicPartition> assigned = new HashSet<>();
    private long lastRefresh;
    private long recordsRead;

    private TopicReader(
            String bootstrapServers,
            Predicate<String> topics,
            String markerTopic,
            TopicFormat format,
            IsolationLevel isolation) {
        Map<String, Object> config = Map.of(
                ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG,
                bootstrapServers,
                ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG,
                false,
                ConsumerConfig.AUTO_OFFSET_RESET_CONFIG,
                "earliest",
                ConsumerConfig.MAX_POLL_RECORDS_CONFIG,
                5000,
                ConsumerConfig.ISOLATION_LEVEL_CONFIG,
                isolation.toString());
        this.consumer = new KafkaConsumer<>(config, new ByteArrayDeserializer(), new ByteArrayDeserializer());
        this.topics = topics;
        this.decoder = new WireDecoder(markerTopic, format);
    }

    /** A reader of every topic named {@code <topicPrefix>.*}, written in {@code format}: changes, markers, messages. */
    public static TopicReader forPrefix(String bootstrapServers, String topicPrefix, TopicFormat format) {
        return ofPrefix(bootstrapServers, topicPrefix, format, IsolationLevel.READ_UNCOMMITTED);
    }

    /**
     * As {@link #forPrefix}, reading only what committed Kafka transactions hold ({@code isolation.level=read_committed}),
     * as a consumer of exactly-once topics would.
     */
    public static TopicReader committedOf(String bootstrapServers, String topicPrefix, TopicFormat format) {
        return ofPrefix(bootstrapServers, topicPrefix, format, IsolationLevel.READ_COMMITTED);
    }

    /**
     * A reader of one topic of the source of {@code topicPrefix} that reads everything written to it, the records of
     * aborted Kafka transactions too.
     */
    public static TopicReader everythingOn(
            String bootstrapServers, String topicPrefix, String topic, TopicFormat format) {
        return new TopicReader(
                bootstrapServers,
                topic::equals,
                topicPrefix + ".transactions",
                format,
                IsolationLevel.READ_UNCOMMITTED);
    }

    private static TopicReader ofPrefix(
            String bootstrapServers, String topicPrefix, TopicFormat format, IsolationLevel isolation) {
        String start = topicPrefix + ".";
        return new TopicReader(
                bootstrapServers, topic -> topic.startsWith(start), start + "transactions", format, isolation);
    }

    /** A reader of the marker topic {@code <topicPrefix>.transactions} only: cheap to follow during a benchmark. */
    public static TopicReader markersOf(String bootstrapServers, String topicPrefix, TopicFormat format) {
        String markerTopic = topicPrefix + ".transactions";
        return new TopicReader(
                bootstrapServers, markerTopic::equals, markerTopic, format, IsolationLevel.READ_UNCOMMITTED);
    }

    /**
     * Reads and hands each record to {@code sink} until {@code done} holds (checked before the first poll and after
     * each batch).
     *
     * @param describe what the caller was waiting for, for the failure message
     * @throws IllegalStateException if {@code done} does not hold within {@code timeout}
     */
    public void readUntil(
            Consumer<WireRecord> sink, BooleanSupplier done, Duration timeout, Supplier<String> describe) {
        long deadline = System.nanoTime() + timeout.toNanos();
        while (!done.getAsBoolean()) {
            if (System.nanoTime() > deadline) {
                throw new IllegalStateException("after " + timeout.toSeconds() + " s and " + recordsRead
                        + " records on " + assigned.size() + " partitions: " + describe.get());
            }
            for (ConsumerRecord<byte[], byte[]> record : poll()) {
                recordsRead++;
                sink.accept(decoder.decode(record));
            }
        }
    }

    /**
     * Reads until the newest record that {@code passOver} does not accept is one {@code done} accepts, decoding of each
     * poll only its newest records, back to the first not passed over; the rest stay bytes, for {@link #decode} after
     * a timed read, whose clock the decoding of every record would otherwise run on. Meant for the one-partition
     * marker topic, where the newest record is the last one written.
     *
     * @return every record read, in order, undecoded
     * @throws IllegalStateException if {@code done} does not hold within {@code timeout}
     */
    public List<ConsumerRecord<byte[], byte[]>> readUntilNewest(
            Predicate<WireRecord> done, Predicate<WireRecord> passOver, Duration timeout, Supplier<String> describe) {
        List<ConsumerRecord<byte[], byte[]>> read = new ArrayList<>();
        long deadline = System.nanoTime() + timeout.toNanos();
        while (true) {
            if (System.nanoTime() > deadline) {
                throw new IllegalStateException("after " + timeout.toSeconds() + " s and " + read.size()
                        + " records on " + assigned.size() + " partitions: " + describe.get());
            }
            int first = read.size();
            poll().forEach(read::add);
            for (int i = read.size() - 1; i >= first; i--) {
                WireRecord newest = decoder.decode(read.get(i));
                if (!passOver.test(newest)) {
                    if (done.test(newest)) {
                        recordsRead += read.size();
                        return read;
                    }
                    break;
                }
            }
        }
    }

    /** Decodes records that {@link #readUntilNewest} left as bytes, in order, and hands each to {@code sink}. */
    public void decode(List<ConsumerRecord<byte[], byte[]>> records, Consumer<WireRecord> sink) {
        for (ConsumerRecord<byte[], byte[]> record : records) {
            sink.accept(decoder.decode(record));
        }
    }

    /** Reads until the partitions hold no more records, for at least {@code quiet}; for "nothing else arrives". */
    public void readQuietFor(Consumer<WireRecord> sink, Duration quiet) {
        long quietSince = System.nanoTime();
        while (System.nanoTime() - quietSince < quiet.toNanos()) {
            for (ConsumerRecord<byte[], byte[]> record : poll()) {
                recordsRead++;
                sink.accept(decoder.decode(record));
                quietSince = System.nanoTime();
            }
        }
    }

    /**
     * Reads every record that is on the partitions when called, and hands each to {@code sink}; returns once the
     * reader has reached the end offsets it looked up first. Records that arrive meanwhile may be read too.
     *
     * @throws IllegalStateException if the end is not reached within {@code timeout}
     */
    public void readToEnd(Consumer<WireRecord> sink, Duration timeout) {
        refreshAssignment();
        Map<TopicPartition, Long> ends = consumer.endOffsets(assigned, Duration.ofSeconds(10));
        readUntil(
                sink,
                () -> ends.entrySet().stream().allMatch(end -> consumer.position(end.getKey()) >= end.getValue()),
                timeout,
                () -> "reading to the end offsets " + ends);
    }

    /** One poll of the assigned partitions; while no topic exists yet, a pause of the same length instead. */
    private Iterable<ConsumerRecord<byte[], byte[]>> poll() {
        refreshAssignment();
        if (!assigned.isEmpty()) {
            return consumer.poll(POLL);
        }
        try {
            Thread.sleep(POLL.toMillis());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while waiting for topics", e);
        }
        return List.of();
    }

    private void refreshAssignment() {
        if (System.nanoTime() - lastRefresh < REFRESH_NANOS && !assigned.isEmpty()) {
            return;
        }
        lastRefresh = System.nanoTime();
        List<TopicPartition> added = new ArrayList<>();
        for (Map.Entry<String, List<PartitionInfo>> topic :
                consumer.listTopics(Duration.ofSeconds(10)).entrySet()) {
            if (!topics.test(topic.getKey())) {
                continue;
            }
            for (PartitionInfo partition : topic.getValue()) {
                TopicPartition tp = new TopicPartition(partition.topic(), partition.partition());
                if (assigned.add(tp)) {
                    added.add(tp);
                }
            }
        }
        if (!added.isEmpty()) {
            consumer.assign(List.copyOf(assigned));
            consumer.seekToBeginning(added);
        }
    }

    @Override
    public void close() {
        consumer.close();
    }
}
