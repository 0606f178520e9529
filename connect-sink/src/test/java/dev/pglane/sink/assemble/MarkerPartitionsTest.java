package dev.pglane.sink.assemble;

import static org.junit.jupiter.api.Assertions.assertDoesNotThrow;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.connect.errors.ConnectException;
import org.junit.jupiter.api.Test;

class MarkerPartitionsTest {
    private static final String MARKERS = "shop.transactions";

    @Test
    void oneMarkerPartitionAndAnyNumberOfChangePartitionsPass() {
        assertDoesNotThrow(() -> MarkerPartitions.requireOne(
                MARKERS,
                List.of(
                        new TopicPartition(MARKERS, 0),
                        new TopicPartition("shop.public.orders", 0),
                        new TopicPartition("shop.public.orders", 5))));
        assertDoesNotThrow(() -> MarkerPartitions.requireOne(MARKERS, List.of()));
    }

    @Test
    void aSecondMarkerPartitionStopsTheTaskNamingTheTopic() {
        ConnectException refused = assertThrows(
                ConnectException.class,
                () -> MarkerPartitions.requireOne(
                        MARKERS,
                        List.of(
                                new TopicPartition(MARKERS, 2),
                                new TopicPartition(MARKERS, 0),
                                new TopicPartition(MARKERS, 1),
                                new TopicPartition("shop.public.orders", 3))));
        assertTrue(
                refused.getMessage()
                        .startsWith("The marker topic shop.transactions has more than one partition" + " (also 1, 2)"),
                refused.getMessage());
        assertThrows(
                ConnectException.class,
                () -> MarkerPartitions.requireOne(MARKERS, List.of(new TopicPartition(MARKERS, 1))),
                "a task assigned only the second partition");
    }
}
