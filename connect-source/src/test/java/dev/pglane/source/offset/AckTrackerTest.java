package dev.pglane.source.offset;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.pglane.wire.Lsn;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.connect.data.Schema;
import org.apache.kafka.connect.source.SourceRecord;
import org.junit.jupiter.api.Test;

class AckTrackerTest {
    private final AckTracker tracker = new AckTracker();

    private static TrackedRecord record(Lsn confirm) {
        return new TrackedRecord(
                Map.of("server", "t"), Map.of(), "t.x", null, null, Schema.STRING_SCHEMA, "v", 0L, null, confirm);
    }

    private static TrackedRecord change() {
        return record(null);
    }

    private static TrackedRecord end(long lsn) {
        return record(Lsn.valueOf(lsn));
    }

    private List<SourceRecord> dispatch(SourceRecord... records) {
        List<SourceRecord> list = List.of(records);
        tracker.dispatch(list);
        return list;
    }

    @Test
    void flushableOnlyOnceTheWholePrefixIncludingTheEndIsAcknowledged() {
        List<SourceRecord> records = dispatch(change(), change(), end(100), change(), end(200));
        tracker.acknowledge(records.get(2));
        tracker.acknowledge(records.get(1));
        assertEquals(Lsn.INVALID, tracker.flushableLsn(), "record 0 is still missing");
        tracker.acknowledge(records.get(0));
        assertEquals(Lsn.valueOf(100), tracker.flushableLsn());
        tracker.acknowledge(records.get(4));
        assertEquals(Lsn.valueOf(100), tracker.flushableLsn(), "the END at 200 waits for record 3");
        tracker.acknowledge(records.get(3));
        assertEquals(Lsn.valueOf(200), tracker.flushableLsn());
        assertTrue(tracker.allAcknowledged());
    }

    /**
     * Records of an aborted Kafka transaction (a session ended inside a database transaction) are never acknowledged;
     * abandoned, they no longer hold the prefix, so the second sending's END moves the slot.
     */
    @Test
    void abandonedRecordsOfAnAbortedKafkaTransactionNoLongerHoldTheSlot() {
        List<SourceRecord> first = dispatch(change(), end(100), change(), change());
        tracker.acknowledge(first.get(0));
        tracker.acknowledge(first.get(1));
        tracker.acknowledge(first.get(3)); // written before the abort
        tracker.abandon(first.get(2));
        List<SourceRecord> again = dispatch(change(), change(), end(300));
        again.forEach(tracker::acknowledge);
        assertEquals(Lsn.valueOf(300), tracker.flushableLsn());
        assertTrue(tracker.allAcknowledged());
    }

    @Test
    void changesAfterTheLastEndDoNotMoveTheFlushableLsn() {
        List<SourceRecord> records = dispatch(change(), end(100), change(), change());
        records.forEach(tracker::acknowledge);
        assertEquals(Lsn.valueOf(100), tracker.flushableLsn());
    }

    @Test
    void heartbeatConfirmsItsPositionLikeAnEnd() {
        List<SourceRecord> records = dispatch(end(100), record(Lsn.valueOf(500)));
        records.forEach(tracker::acknowledge);
        assertEquals(Lsn.valueOf(500), tracker.flushableLsn());
    }

    @Test
    void nothingInFlightTracksDispatchedAgainstAcknowledged() {
        assertTrue(tracker.allAcknowledged(), "nothing dispatched yet");
        List<SourceRecord> records = dispatch(change(), end(100));
        assertFalse(tracker.allAcknowledged());
        tracker.acknowledge(records.get(1));
        assertFalse(tracker.allAcknowledged(), "acknowledged out of order: record 0 is still in flight");
        tracker.acknowledge(records.get(0));
        assertTrue(tracker.allAcknowledged());
    }

    @Test
    void duplicateAndForeignAcknowledgementsAreIgnored() {
        List<SourceRecord> records = dispatch(change(), end(100));
        tracker.acknowledge(records.get(0));
        tracker.acknowledge(records.get(0));
        tracker.acknowledge(new SourceRecord(Map.of(), Map.of(), "other", Schema.STRING_SCHEMA, "x"));
        tracker.acknowledge(change());
        assertFalse(tracker.allAcknowledged());
        tracker.acknowledge(records.get(1));
        assertTrue(tracker.allAcknowledged());
        assertEquals(Lsn.valueOf(100), tracker.flushableLsn());
    }

    @Test
    void flushableNeverMovesBackwards() {
        List<SourceRecord> first = dispatch(end(300));
        first.forEach(tracker::acknowledge);
        List<SourceRecord> second = dispatch(end(200));
        second.forEach(tracker::acknowledge);
        assertEquals(Lsn.valueOf(300), tracker.flushableLsn());
    }

    @Test
    void concurrentAcknowledgementsInRandomOrderReachTheLastEnd() throws InterruptedException {
        List<SourceRecord> records = new ArrayList<>();
        for (int i = 1; i <= 10_000; i++) {
            records.add(i % 10 == 0 ? end(i) : change());
        }
        tracker.dispatch(records);
        List<SourceRecord> shuffled = new ArrayList<>(records);
        Collections.shuffle(shuffled, new Random(7));
        ExecutorService producers = Executors.newFixedThreadPool(4);
        for (int t = 0; t < 4; t++) {
            List<SourceRecord> part = shuffled.subList(t * 2500, (t + 1) * 2500);
            producers.submit(() -> part.forEach(tracker::acknowledge));
        }
        producers.shutdown();
        assertTrue(producers.awaitTermination(30, TimeUnit.SECONDS));
        assertEquals(Lsn.valueOf(10_000), tracker.flushableLsn());
        assertTrue(tracker.allAcknowledged());
    }
}
