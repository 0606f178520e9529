package dev.pglane.sink.flow;

import dev.pglane.sink.assemble.Awaited;
import java.util.HashSet;
import java.util.Set;
import java.util.function.Predicate;
import java.util.function.Supplier;
import org.apache.kafka.common.TopicPartition;

/**
 * Keeps the partitions of a sink that is behind in step. Connect's consumer fills every partition's
 * fetch up to the same byte budget, so while the sink is behind, the topics do not advance in step
 * (the marker topic runs ahead of a table topic, or behind it, by turns), and the assembler fills with
 * copies waiting for the partition that lags. Measured under pgbench's load: 73,000 copies held, spilled and
 * scanned at every offset commit, while the workers had nothing to apply.
 *
 * <p>Once the assembler holds more than {@code limit} copies, every assigned partition the next
 * transaction in commit order does not wait for is paused, until the assembler holds fewer than half as
 * many; the same partitions pause while the spill files are over spill.max.bytes ({@link SpillCap}). The
 * awaited partitions always keep flowing, so the head of the commit order can always complete.
 */
public final class PartitionFlow {
    private final int limit;
    private final Predicate<String> markerTopic;
    private boolean skewed;

    public PartitionFlow(int limit, Predicate<String> markerTopic) {
        if (limit < 2) {
            throw new IllegalArgumentException("limit must be at least 2: " + limit);
        }
        this.limit = limit;
        this.markerTopic = markerTopic;
    }

    /** The limit for a sink that holds at most {@code bufferMaxTransactions} transactions in all. */
    public static int limitFor(int bufferMaxTransactions) {
        return Math.max(16, bufferMaxTransactions / 10);
    }

    /**
     * The partitions to pause because they are ahead; none while the assembler holds few copies and the
     * spill files are under their cap.
     *
     * @param heldCopies copies the assembler holds
     * @param spillCapped whether the spill files reached spill.max.bytes
     * @param awaited what the next transaction waits for, asked only when needed
     */
    public Set<TopicPartition> ahead(
            int heldCopies, boolean spillCapped, Supplier<Awaited> awaited, Set<TopicPartition> assignment) {
        if (heldCopies > limit) {
            skewed = true;
        } else if (heldCopies < limit / 2) {
            skewed = false;
        }
        if (!skewed && !spillCapped) {
            return Set.of();
        }
        Awaited next = awaited.get();
        Set<TopicPartition> ahead = new HashSet<>();
        for (TopicPartition partition : assignment) {
            boolean needed = markerTopic.test(partition.topic())
                    ? next.markers()
                    : next.topics().contains(partition.topic());
            if (!needed) {
                ahead.add(partition);
            }
        }
        return ahead;
    }
}
