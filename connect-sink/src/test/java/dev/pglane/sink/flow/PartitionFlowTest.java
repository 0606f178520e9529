package dev.pglane.sink.flow;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.fail;

import dev.pglane.sink.assemble.Awaited;
import java.util.Set;
import java.util.function.Supplier;
import org.apache.kafka.common.TopicPartition;
import org.junit.jupiter.api.Test;

class PartitionFlowTest {
    private static final TopicPartition MARKERS = new TopicPartition("shop.transactions", 0);
    private static final TopicPartition ORDERS_0 = new TopicPartition("shop.public.orders", 0);
    private static final TopicPartition ORDERS_1 = new TopicPartition("shop.public.orders", 1);
    private static final TopicPartition ITEMS = new TopicPartition("shop.public.items", 0);
    private static final Set<TopicPartition> ASSIGNMENT = Set.of(MARKERS, ORDERS_0, ORDERS_1, ITEMS);
    private static final Supplier<Awaited> NOT_ASKED = () -> fail("what is awaited matters only when skewed");

    private final PartitionFlow flow = new PartitionFlow(100, topic -> topic.equals(MARKERS.topic()));

    @Test
    void pausesNothingWhileTheAssemblerHoldsFewCopies() {
        assertEquals(Set.of(), flow.ahead(100, false, NOT_ASKED, ASSIGNMENT));
    }

    @Test
    void recordsAheadOfTheirEndsPauseEveryTableTopicButTheMarkers() {
        assertEquals(Set.of(ORDERS_0, ORDERS_1, ITEMS), flow.ahead(101, false, () -> Awaited.END, ASSIGNMENT));
    }

    @Test
    void endsAheadOfTheirRecordsPauseTheMarkersAndTheTopicsNotAwaited() {
        Awaited orders = new Awaited(false, Set.of(ORDERS_0.topic()));
        assertEquals(Set.of(MARKERS, ITEMS), flow.ahead(101, false, () -> orders, ASSIGNMENT));
    }

    @Test
    void markersKeepFlowingWhileALaterRunMaySendTheHeadAgain() {
        Awaited ordersOrResend = new Awaited(true, Set.of(ORDERS_0.topic()));
        assertEquals(Set.of(ITEMS), flow.ahead(101, false, () -> ordersOrResend, ASSIGNMENT));
    }

    @Test
    void resumesOnlyBelowHalfTheLimit() {
        flow.ahead(101, false, () -> Awaited.END, ASSIGNMENT);
        assertEquals(Set.of(ORDERS_0, ORDERS_1, ITEMS), flow.ahead(50, false, () -> Awaited.END, ASSIGNMENT));
        assertEquals(Set.of(), flow.ahead(49, false, NOT_ASKED, ASSIGNMENT));
        assertEquals(Set.of(), flow.ahead(100, false, NOT_ASKED, ASSIGNMENT));
    }

    @Test
    void spillFilesOverTheirCapPauseWhatIsNotAwaitedAlsoWithFewCopies() {
        Awaited orders = new Awaited(false, Set.of(ORDERS_0.topic()));
        assertEquals(Set.of(MARKERS, ITEMS), flow.ahead(2, true, () -> orders, ASSIGNMENT));
        assertEquals(Set.of(ORDERS_0, ORDERS_1, ITEMS), flow.ahead(2, true, () -> Awaited.END, ASSIGNMENT));
        assertEquals(Set.of(), flow.ahead(2, false, NOT_ASKED, ASSIGNMENT), "under the cap again");
    }

    @Test
    void theLimitFollowsTheTransactionBuffer() {
        assertEquals(1_000, PartitionFlow.limitFor(10_000));
        assertEquals(16, PartitionFlow.limitFor(20));
    }
}
