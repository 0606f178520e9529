package dev.pglane.sink.progress;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.Map;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.common.TopicPartition;
import org.junit.jupiter.api.Test;

class OffsetLedgerTest {
    private static final TopicPartition MARKERS = new TopicPartition("shop.transactions", 0);
    private static final TopicPartition ORDERS = new TopicPartition("shop.public.orders", 0);
    private static final TopicPartition ITEMS = new TopicPartition("shop.public.items", 1);

    @Test
    void offsetsStayAtTheOldestRecordOfATransactionNotYetDurable() {
        OffsetLedger ledger = new OffsetLedger();
        ledger.released(1, Map.of(MARKERS, 10L, ORDERS, 100L));
        ledger.released(2, Map.of(MARKERS, 11L, ITEMS, 50L));
        ledger.released(3, Map.of(MARKERS, 12L, ORDERS, 104L));

        Map<TopicPartition, OffsetAndMetadata> consumed = Map.of(
                MARKERS,
                new OffsetAndMetadata(20),
                ORDERS,
                new OffsetAndMetadata(200),
                ITEMS,
                new OffsetAndMetadata(60));
        Map<TopicPartition, Long> floors = ledger.floors(Map.of());
        assertEquals(
                Map.of(
                        MARKERS,
                        new OffsetAndMetadata(10),
                        ORDERS,
                        new OffsetAndMetadata(100),
                        ITEMS,
                        new OffsetAndMetadata(50)),
                OffsetLedger.committable(consumed, floors));

        ledger.durableThrough(2);
        assertEquals(
                Map.of(
                        MARKERS,
                        new OffsetAndMetadata(12),
                        ORDERS,
                        new OffsetAndMetadata(104),
                        ITEMS,
                        new OffsetAndMetadata(60)),
                OffsetLedger.committable(consumed, ledger.floors(Map.of())));
    }

    @Test
    void heldRecordsOfTheAssemblerCountToo() {
        OffsetLedger ledger = new OffsetLedger();
        ledger.released(7, Map.of(ORDERS, 300L));
        assertEquals(Map.of(ORDERS, 250L, MARKERS, 40L), ledger.floors(Map.of(ORDERS, 250L, MARKERS, 40L)));
        ledger.durableThrough(7);
        ledger.clear();
        Map<TopicPartition, OffsetAndMetadata> consumed = Map.of(ORDERS, new OffsetAndMetadata(400));
        assertEquals(consumed, OffsetLedger.committable(consumed, ledger.floors(Map.of())));
    }

    @Test
    void aFloorAboveTheConsumedPositionNeverMovesItForward() {
        Map<TopicPartition, OffsetAndMetadata> consumed = Map.of(ORDERS, new OffsetAndMetadata(5));
        assertEquals(consumed, OffsetLedger.committable(consumed, Map.of(ORDERS, 9L)));
    }

    @Test
    void transactionsThePipelineNeverTookStayNeededUntilTheRestart() {
        OffsetLedger ledger = new OffsetLedger();
        ledger.released(1, Map.of(ORDERS, 100L));
        ledger.unsubmitted(Map.of(MARKERS, 5L, ITEMS, 20L));
        ledger.durableThrough(1);
        assertEquals(Map.of(MARKERS, 5L, ITEMS, 20L), ledger.floors(Map.of()));
        ledger.clear();
        assertEquals(Map.of(), ledger.floors(Map.of()));
    }
}
