package dev.pglane.source.pace;

import java.util.Map;
import org.apache.kafka.common.TopicPartition;

/** How many records a consumer group has left to consume. */
final class GroupLag {
    private GroupLag() {}

    /**
     * The records between the group's committed offset and the end of each partition it has committed on; a partition
     * it has never committed on is not the group's (a sink that reads some topics only), so it does not count.
     *
     * @param committed the group's committed offsets
     * @param ends the partitions' end offsets; a partition missing here (deleted since) does not count
     */
    static long behind(Map<TopicPartition, Long> committed, Map<TopicPartition, Long> ends) {
        long behind = 0;
        for (Map.Entry<TopicPartition, Long> partition : committed.entrySet()) {
            Long end = ends.get(partition.getKey());
            if (end != null) {
                behind += Math.max(0, end - partition.getValue());
            }
        }
        return behind;
    }

    /**
     * The records the group committed past between two readings of its offsets: a partition it had not committed on
     * at the first counts from the second on.
     */
    static long consumed(Map<TopicPartition, Long> before, Map<TopicPartition, Long> after) {
        long consumed = 0;
        for (Map.Entry<TopicPartition, Long> partition : after.entrySet()) {
            Long earlier = before.get(partition.getKey());
            if (earlier != null) {
                consumed += Math.max(0, partition.getValue() - earlier);
            }
        }
        return consumed;
    }
}
