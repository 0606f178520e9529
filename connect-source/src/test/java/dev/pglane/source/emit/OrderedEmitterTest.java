package dev.pglane.source.emit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.pglane.source.decode.BatchDecoder;
import dev.pglane.source.decode.DecoderLanes;
import dev.pglane.source.decode.LaneActivity;
import dev.pglane.source.decode.StreamItem;
import dev.pglane.source.offset.AckTracker;
import dev.pglane.wire.Lsn;
import dev.pglane.wire.SourceOffset;
import dev.pglane.wire.marker.Marker;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;
import org.apache.kafka.connect.data.Schema;
import org.apache.kafka.connect.errors.ConnectException;
import org.apache.kafka.connect.source.SourceRecord;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** Lanes plus emitter: whatever the lane speeds, records leave in the order the batches went in. */
class OrderedEmitterTest {
    private static final Duration WAIT = Duration.ofMillis(100);

    private final FailureSlot failures = new FailureSlot();
    private DecoderLanes lanes;

    @AfterEach
    void closeLanes() {
        if (lanes != null) {
            lanes.close(Duration.ofSeconds(5));
        }
    }

    /** An item whose record value is its position in the stream. */
    private static StreamItem item(long position) {
        return new StreamItem.MarkerItem(
                new Marker.Heartbeat(0, position, Lsn.valueOf(position + 1)),
                SourceOffset.between(Lsn.valueOf(position + 1), 0));
    }

    private static long position(StreamItem item) {
        return ((StreamItem.MarkerItem) item).marker().tsMs();
    }

    private static SourceRecord record(StreamItem item) {
        return new SourceRecord(null, null, "t", Schema.INT64_SCHEMA, position(item));
    }

    /** Decodes like a lane would, spending a random time of up to {@code maxMicros} on each batch. */
    private static BatchDecoder randomlySlow(int maxMicros) {
        return batch -> {
            LockSupport.parkNanos(
                    TimeUnit.MICROSECONDS.toNanos(ThreadLocalRandom.current().nextInt(maxMicros + 1)));
            return batch.stream().map(OrderedEmitterTest::record).toList();
        };
    }

    private OrderedEmitter start(int laneCount, int capacity, BatchDecoder decoder) {
        lanes = new DecoderLanes("test", laneCount, capacity, decoder, failures, LaneActivity.NONE);
        lanes.start();
        return new OrderedEmitter(lanes, failures, new AckTracker());
    }

    /** Offers batch k to lane k mod N, as the reader does, blocking while the lane is full. */
    private Thread produce(List<List<StreamItem>> batches) {
        Thread producer = new Thread(() -> {
            try {
                for (int k = 0; k < batches.size(); k++) {
                    while (!lanes.offer(k % lanes.count(), batches.get(k), 10, TimeUnit.MILLISECONDS)) {
                        // full: try again, as the reader does between status updates
                    }
                }
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        });
        producer.start();
        return producer;
    }

    private static List<List<StreamItem>> batches(int count, int maxSize) {
        List<List<StreamItem>> batches = new ArrayList<>();
        long position = 0;
        for (int k = 0; k < count; k++) {
            int size = 1 + ThreadLocalRandom.current().nextInt(maxSize);
            List<StreamItem> batch = new ArrayList<>(size);
            for (int i = 0; i < size; i++) {
                batch.add(item(position++));
            }
            batches.add(batch);
        }
        return batches;
    }

    private static List<Long> drain(OrderedEmitter emitter, long expected, int maxRecords) throws InterruptedException {
        List<Long> seen = new ArrayList<>();
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
        while (seen.size() < expected && System.nanoTime() < deadline) {
            int limit = maxRecords > 0
                    ? maxRecords
                    : 1 + ThreadLocalRandom.current().nextInt(200);
            List<SourceRecord> records = emitter.poll(limit, WAIT);
            assertTrue(records.size() <= limit, "a poll returned more than its limit");
            records.forEach(r -> seen.add((Long) r.value()));
        }
        return seen;
    }

    @Test
    void recordsLeaveInStreamOrderWhateverTheLaneSpeeds() throws InterruptedException {
        OrderedEmitter emitter = start(4, 3, randomlySlow(300));
        List<List<StreamItem>> batches = batches(5_000, 16);
        long total = batches.stream().mapToLong(List::size).sum();
        Thread producer = produce(batches);
        List<Long> seen = drain(emitter, total, 0);
        producer.join(TimeUnit.SECONDS.toMillis(10));
        assertEquals(total, seen.size());
        for (int i = 0; i < seen.size(); i++) {
            assertEquals(i, seen.get(i), "record " + i + " out of order");
        }
        assertEquals(total, emitter.emitted());
    }

    @Test
    void aFullLaneHoldsTheProducerBackUntilTheEmitterDrainsIt() throws InterruptedException {
        CountDownLatch release = new CountDownLatch(1);
        OrderedEmitter emitter = start(1, 2, batch -> {
            try {
                release.await();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
            return batch.stream().map(OrderedEmitterTest::record).toList();
        });
        int accepted = 0;
        while (lanes.offer(0, List.of(item(accepted)), 50, TimeUnit.MILLISECONDS)) {
            accepted++;
            assertTrue(accepted <= 3, "the lane accepted more than its queue plus the batch in work");
        }
        assertTrue(accepted >= 2, "the queue holds two batches");
        release.countDown();
        assertEquals(List.of(0L, 1L, 2L).subList(0, accepted), drain(emitter, accepted, 10));
        assertTrue(lanes.offer(0, List.of(item(accepted)), 1, TimeUnit.SECONDS), "drained lane accepts again");
    }

    @Test
    void aPollReturnsAtMostItsLimitAndKeepsTheRestForTheNext() throws InterruptedException {
        OrderedEmitter emitter = start(2, 4, randomlySlow(0));
        List<List<StreamItem>> batches = batches(2, 1);
        batches.set(0, List.of(item(0), item(1), item(2), item(3), item(4)));
        batches.set(1, List.of(item(5), item(6)));
        produce(batches).join();
        List<Integer> sizes = new ArrayList<>();
        List<Long> seen = new ArrayList<>();
        while (seen.size() < 7) {
            List<SourceRecord> records = emitter.poll(3, WAIT);
            sizes.add(records.size());
            records.forEach(r -> seen.add((Long) r.value()));
        }
        assertEquals(List.of(0L, 1L, 2L, 3L, 4L, 5L, 6L), seen);
        assertTrue(sizes.stream().allMatch(s -> s <= 3), "sizes " + sizes);
    }

    @Test
    void anEmptyPollReturnsWithinItsWait() throws InterruptedException {
        OrderedEmitter emitter = start(2, 4, randomlySlow(0));
        long start = System.nanoTime();
        assertTrue(emitter.poll(10, WAIT).isEmpty());
        long tookMillis = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - start);
        assertTrue(tookMillis >= 90 && tookMillis < 2_000, "took " + tookMillis + " ms");
        assertEquals(null, emitter.lastOffset());
    }

    @Test
    void aLaneFailureSurfacesInPoll() throws InterruptedException {
        OrderedEmitter emitter = start(2, 4, batch -> {
            if (batch.stream().anyMatch(i -> position(i) == 3)) {
                throw new IllegalStateException("cannot decode item 3");
            }
            return batch.stream().map(OrderedEmitterTest::record).toList();
        });
        produce(List.of(List.of(item(0)), List.of(item(1)), List.of(item(2)), List.of(item(3))))
                .join();
        ConnectException thrown = awaitFailure(emitter);
        assertTrue(thrown.getMessage().contains("cannot decode item 3"), thrown.getMessage());
        assertEquals(thrown, assertThrows(ConnectException.class, () -> emitter.poll(10, WAIT)), "kept");
    }

    /** A lane killed by an Error would otherwise leave the emitter waiting on its queue for good. */
    @Test
    void anErrorInALaneSurfacesInPoll() throws InterruptedException {
        OrderedEmitter emitter = start(2, 4, batch -> {
            throw new OutOfMemoryError("injected into a lane");
        });
        produce(List.of(List.of(item(0)))).join();
        ConnectException thrown = awaitFailure(emitter);
        assertTrue(
                thrown.getMessage().startsWith("Decoder lane 0 failed: java.lang.OutOfMemoryError"),
                thrown.getMessage());
    }

    @Test
    void aConnectExceptionOfTheDecoderIsStoredAsItIs() throws InterruptedException {
        ConnectException decodingFailure = new ConnectException("Cannot decode a change of table public.t");
        OrderedEmitter emitter = start(1, 4, batch -> {
            throw decodingFailure;
        });
        produce(List.of(List.of(item(0)))).join();
        assertEquals(decodingFailure, awaitFailure(emitter));
    }

    /** Polls until the emitter rethrows the failure a lane stored. */
    private static ConnectException awaitFailure(OrderedEmitter emitter) throws InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
        while (System.nanoTime() < deadline) {
            try {
                emitter.poll(10, WAIT);
            } catch (ConnectException e) {
                return e;
            }
        }
        throw new AssertionError("no failure surfaced within 10 s");
    }
}
