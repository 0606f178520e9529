package dev.pglane.source.pace;

import java.util.HashMap;
import java.util.Map;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.ListOffsetsResult;
import org.apache.kafka.clients.admin.OffsetSpec;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.errors.UnknownTopicOrPartitionException;

/** A consumer group's lag from Kafka's admin API: its committed offsets against the partitions' ends. */
final class AdminLagReader implements GroupLagWatch.LagReader {
    private static final long TIMEOUT_SECONDS = 10;

    private final Admin admin;
    private final String group;

    AdminLagReader(GroupLagWatch.Settings settings) {
        Map<String, Object> config = new HashMap<>();
        config.put(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, settings.bootstrapServers());
        config.put(AdminClientConfig.CLIENT_ID_CONFIG, "pglane-" + settings.connectorName() + "-snapshot-pace");
        config.putAll(settings.adminOverrides());
        this.admin = Admin.create(config);
        this.group = settings.group();
    }

    @Override
    public GroupLagWatch.Reading read() throws Exception {
        Map<TopicPartition, OffsetAndMetadata> offsets = admin.listConsumerGroupOffsets(group)
                .partitionsToOffsetAndMetadata()
                .get(TIMEOUT_SECONDS, TimeUnit.SECONDS);
        Map<TopicPartition, Long> committed = new HashMap<>();
        Map<TopicPartition, OffsetSpec> latest = new HashMap<>();
        offsets.forEach((partition, offset) -> {
            if (offset != null) {
                committed.put(partition, offset.offset());
                latest.put(partition, OffsetSpec.latest());
            }
        });
        if (committed.isEmpty()) {
            return new GroupLagWatch.Reading(0, Map.of());
        }
        ListOffsetsResult listed = admin.listOffsets(latest);
        Map<TopicPartition, Long> ends = new HashMap<>();
        for (TopicPartition partition : latest.keySet()) {
            try {
                ends.put(
                        partition,
                        listed.partitionResult(partition)
                                .get(TIMEOUT_SECONDS, TimeUnit.SECONDS)
                                .offset());
            } catch (ExecutionException e) {
                if (!(e.getCause() instanceof UnknownTopicOrPartitionException)) {
                    throw e;
                }
                // a topic deleted since the group committed on it: nothing left to consume there
            }
        }
        return new GroupLagWatch.Reading(GroupLag.behind(committed, ends), committed);
    }

    @Override
    public void close() {
        admin.close();
    }
}
