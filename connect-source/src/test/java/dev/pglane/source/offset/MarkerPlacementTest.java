package dev.pglane.source.offset;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Map;
import java.util.Optional;
import org.apache.kafka.clients.producer.RecordMetadata;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.connect.data.Schema;
import org.apache.kafka.connect.errors.ConnectException;
import org.apache.kafka.connect.source.SourceRecord;
import org.junit.jupiter.api.Test;

class MarkerPlacementTest {
    private static final String MARKERS = "shop.transactions";

    @Test
    void markersInTheFirstPartitionAndChangesAnywherePass() {
        assertEquals(Optional.empty(), MarkerPlacement.check(MARKERS, record(MARKERS), stored(MARKERS, 0)));
        assertEquals(
                Optional.empty(),
                MarkerPlacement.check(MARKERS, record("shop.public.orders"), stored("shop.public.orders", 3)));
        assertEquals(Optional.empty(), MarkerPlacement.check(MARKERS, record(MARKERS), null));
    }

    @Test
    void aMarkerStoredInAnotherPartitionStopsTheTaskNamingTheTopicAndPartition() {
        Optional<ConnectException> failure = MarkerPlacement.check(MARKERS, record(MARKERS), stored(MARKERS, 2));
        assertTrue(failure.isPresent());
        assertTrue(
                failure.get()
                        .getMessage()
                        .contains("was stored in partition 2 of the marker topic shop.transactions, which must have"
                                + " one partition"),
                failure.get().getMessage());
    }

    private static SourceRecord record(String topic) {
        return new SourceRecord(
                Map.of("server", "shop"), Map.of("lsn", 1L), topic, null, Schema.INT64_SCHEMA, 7L, null, null);
    }

    private static RecordMetadata stored(String topic, int partition) {
        return new RecordMetadata(new TopicPartition(topic, partition), 0, 0, 0, 0, 0);
    }
}
