package dev.pglane.source.pace;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.Map;
import org.apache.kafka.common.TopicPartition;
import org.junit.jupiter.api.Test;

class GroupLagTest {
    private static final TopicPartition ACCOUNTS = new TopicPartition("pglane.public.accounts", 0);
    private static final TopicPartition MARKERS = new TopicPartition("pglane.transactions", 0);
    private static final TopicPartition OTHER = new TopicPartition("other", 0);

    @Test
    void sumsWhatIsLeftOnEachPartitionTheGroupCommittedOn() {
        long behind = GroupLag.behind(
                Map.of(ACCOUNTS, 1_000L, MARKERS, 40L), Map.of(ACCOUNTS, 11_000L, MARKERS, 50L, OTHER, 99_999L));

        assertEquals(10_010, behind, "the partition the group never committed on is not its business");
    }

    @Test
    void aDeletedPartitionOrACommitPastTheEndCountsNothing() {
        assertEquals(0, GroupLag.behind(Map.of(ACCOUNTS, 5L, MARKERS, 60L), Map.of(MARKERS, 50L)));
    }
}
