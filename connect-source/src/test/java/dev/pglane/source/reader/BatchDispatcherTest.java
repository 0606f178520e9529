package dev.pglane.source.reader;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.pglane.source.decode.DecoderLanes;
import dev.pglane.source.decode.LaneActivity;
import dev.pglane.source.decode.StreamItem;
import dev.pglane.source.emit.FailureSlot;
import dev.pglane.wire.Lsn;
import dev.pglane.wire.SourceOffset;
import dev.pglane.wire.marker.Marker;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.apache.kafka.connect.data.Schema;
import org.apache.kafka.connect.source.SourceRecord;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

class BatchDispatcherTest {
    private final CountDownLatch release = new CountDownLatch(1);
    private DecoderLanes lanes;

    @AfterEach
    void close() {
        release.countDown();
        lanes.close(Duration.ofSeconds(5));
    }

    private static StreamItem item(long position) {
        return new StreamItem.MarkerItem(
                new Marker.Heartbeat(0, position, Lsn.valueOf(1)), SourceOffset.between(Lsn.valueOf(1), 0));
    }

    /** Lanes whose decoder waits for {@link #release}, so batches stay where the dispatcher put them. */
    private void lanes(int count, int capacity) {
        lanes = new DecoderLanes(
                "test",
                count,
                capacity,
                batch -> {
                    try {
                        release.await();
                    } catch (InterruptedException e) {
                        Thread.currentThread().interrupt();
                    }
                    return batch.stream()
                            .map(i -> new SourceRecord(null, null, "t", Schema.INT64_SCHEMA, (Long)
                                    ((StreamItem.MarkerItem) i).marker().tsMs()))
                            .toList();
                },
                new FailureSlot(),
                LaneActivity.NONE);
    }

    @Test
    void fullBatchesGoRoundRobinAndFlushHandsOverThePartialOne() throws Exception {
        lanes(3, 4);
        BatchDispatcher dispatcher = new BatchDispatcher(lanes, 2, () -> {});
        for (int i = 0; i < 7; i++) {
            dispatcher.add(item(i));
        }
        assertEquals(List.of(1, 1, 1), List.of(lanes.queueDepth(0), lanes.queueDepth(1), lanes.queueDepth(2)));
        dispatcher.flush();
        dispatcher.flush();
        assertEquals(2, lanes.queueDepth(0), "the partial batch of item 6 went to lane 0, the empty one nowhere");
        assertEquals(7, dispatcher.produced());

        lanes.start();
        release.countDown();
        long[] expected = {0, 1, 2, 3, 4, 5, 6};
        int lane = 0;
        int next = 0;
        while (next < expected.length) {
            List<SourceRecord> batch = lanes.poll(lane, 10, TimeUnit.SECONDS);
            for (SourceRecord record : batch) {
                assertEquals(expected[next++], record.value());
            }
            lane = (lane + 1) % 3;
        }
    }

    @Test
    void whileALaneIsFullTheDispatcherCallsBackBetweenWaitSlicesAndStopsWhenAsked() throws Exception {
        lanes(1, 1);
        AtomicInteger waits = new AtomicInteger();
        BatchDispatcher dispatcher = new BatchDispatcher(lanes, 1, () -> {
            if (waits.incrementAndGet() == 3) {
                throw new InterruptedException("stopping");
            }
        });
        dispatcher.add(item(0));
        assertThrows(InterruptedException.class, () -> dispatcher.add(item(1)));
        assertEquals(3, waits.get(), "called back at every slice until told to stop");
        assertTrue(dispatcher.waitedNanos() > 0);
    }
}
