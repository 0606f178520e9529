package dev.pglane.sink.decode;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.pglane.connect.logging.LogCapture;
import dev.pglane.sink.admit.RecordAdmission;
import dev.pglane.sink.admit.TableIncludeList;
import dev.pglane.sink.decode.RecordDecoder.Decoded;
import dev.pglane.sink.target.TableMapping;
import dev.pglane.wire.Lsn;
import dev.pglane.wire.TopicNames;
import dev.pglane.wire.TransactionKey;
import dev.pglane.wire.marker.Marker;
import dev.pglane.wire.marker.MarkerCodec;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.locks.LockSupport;
import org.apache.kafka.connect.errors.ConnectException;
import org.apache.kafka.connect.sink.SinkRecord;
import org.junit.jupiter.api.Test;

/**
 * A batch decoded on several threads comes back whole and in its order, the task thread decoding none of it, and a
 * failure waits for every slice.
 */
class DecodeLanesTest {
    private static final String MARKERS = "shop.transactions";
    private static final String LEDGER = "shop.public.ledger";

    /**
     * Which threads read values; the value at {@link #failAt} fails as a misconfigured converter does, and the one
     * at {@link #slowAt} is read only after that failure, and not before the test saw {@code decode} return (or a
     * deadline passed): a {@code decode} that returned before every slice ended shows a slice still running.
     */
    private final Set<String> readers = ConcurrentHashMap.newKeySet();

    private final AtomicInteger running = new AtomicInteger();
    private volatile long failAt = -1;
    private volatile long slowAt = -1;
    private final CountDownLatch failed = new CountDownLatch(1);
    private final CountDownLatch returned = new CountDownLatch(1);
    /** The value at this offset is read only once the log warns of the stalled slice. */
    private volatile long stallAt = -1;

    private volatile LogCapture capture;

    @Test
    void aBatchDecodedOnTheDecodeThreadsEqualsTheOneTheTaskThreadDecodesAlone() {
        List<SinkRecord> batch = batch(1_000);
        List<Decoded> alone;
        try (DecodeLanes lanes = lanes(0)) {
            alone = lanes.decode(batch);
            assertEquals(Set.of(Thread.currentThread().getName()), readers);
        }
        readers.clear();
        try (DecodeLanes lanes = lanes(2)) {
            assertEquals(described(alone), described(lanes.decode(batch)));
            assertEquals(
                    Set.of("test-decode-0", "test-decode-1"),
                    readers,
                    "both decode threads took a slice, the task thread none: it is the serial stage");
            // a second batch reuses the threads and their decoders
            assertEquals(described(alone), described(lanes.decode(batch)));
        }
        for (int i = 0; i < batch.size(); i++) {
            if (i % 10 == 9) {
                RecordDecoder.Undecodable bad = assertInstanceOf(RecordDecoder.Undecodable.class, alone.get(i));
                assertSame(batch.get(i), bad.record());
                assertEquals(i, bad.keyXid(), "the xid of an unreadable value's key is read for its transaction");
            } else {
                RecordDecoder.MarkerRecord marker = assertInstanceOf(RecordDecoder.MarkerRecord.class, alone.get(i));
                assertEquals(i, marker.offset());
                assertEquals(i, marker.marker().keyXid());
            }
        }
    }

    @Test
    void aSmallBatchStaysOnTheTaskThreadAndALargerOneGoesToADecodeThread() {
        try (DecodeLanes lanes = lanes(2)) {
            assertEquals(
                    DecodeLanes.MIN_SLICE - 1,
                    lanes.decode(batch(DecodeLanes.MIN_SLICE - 1)).size());
            assertEquals(Set.of(Thread.currentThread().getName()), readers);
            readers.clear();
            assertEquals(
                    2 * DecodeLanes.MIN_SLICE - 1,
                    lanes.decode(batch(2 * DecodeLanes.MIN_SLICE - 1)).size());
            assertEquals(Set.of("test-decode-0"), readers, "one slice, on a decode thread");
        }
    }

    @Test
    void aFailureOnADecodeThreadIsThrownOnceEverySliceEnded() {
        List<SinkRecord> batch = batch(900);
        failAt = 350; // in the first slice; the second is still busy then
        slowAt = 850;
        try (DecodeLanes lanes = lanes(2)) {
            ConnectException e = assertThrows(ConnectException.class, () -> lanes.decode(batch));
            int stillRunning = running.get();
            returned.countDown();
            assertEquals("value of offset 350 is not bytes", e.getMessage());
            assertEquals(0, stillRunning, "no slice still decodes when the failure is thrown");
            failAt = -1;
            slowAt = -1;
            assertEquals(900, lanes.decode(batch).size(), "the lanes go on after a failed batch");
        }
    }

    /** A slice that does not come back (a registry that never answers) is named in the log, with where it is. */
    @Test
    void aSliceThatTakesLongIsNamedWithWhereItsThreadIs() {
        stallAt = 700; // in the second slice
        try (LogCapture log = LogCapture.start();
                DecodeLanes lanes = new DecodeLanes(
                        2,
                        () -> new RecordDecoder(
                                MARKERS, admission(), new RecordingReader(), new EnvelopeReader.Pglane()),
                        "test",
                        Duration.ofMillis(50))) {
            capture = log;
            assertEquals(900, lanes.decode(batch(900)).size(), "the batch still comes back whole");
            List<String> warned = stalledWarnings(log);
            assertFalse(warned.isEmpty(), log.lines()::toString);
            assertTrue(
                    warned.get(0)
                            .contains("Decoding a batch of 900 records has taken 0 s: decode thread test-decode-1"
                                    + " is still at "),
                    warned::toString);
            assertTrue(warned.get(0).contains("RecordingReader.awaitStallWarned"), warned::toString);
        }
    }

    private static List<String> stalledWarnings(LogCapture log) {
        return log.lines().stream()
                .filter(l -> l.startsWith("WARN ") && l.contains("Decoding a batch"))
                .toList();
    }

    /** What a decoded record says, comparable across runs (a cause is a new exception each time). */
    private static List<String> described(List<Decoded> decoded) {
        return decoded.stream()
                .map(d -> d instanceof RecordDecoder.Undecodable u
                        ? u.describe() + " xid " + u.keyXid() + ": " + u.cause().getMessage()
                        : d.toString())
                .toList();
    }

    private DecodeLanes lanes(int threads) {
        return new DecodeLanes(
                threads,
                () -> new RecordDecoder(MARKERS, admission(), new RecordingReader(), new EnvelopeReader.Pglane()),
                "test");
    }

    private static RecordAdmission admission() {
        return new RecordAdmission(
                TopicNames.perTable("shop"),
                new TableIncludeList(List.of()),
                new TableMapping("${schema}.${table}"),
                null,
                false);
    }

    /** END markers of xids 0, 1, ...; every tenth record a change whose value is not a pglane envelope. */
    private static List<SinkRecord> batch(int size) {
        List<SinkRecord> records = new ArrayList<>();
        for (int i = 0; i < size; i++) {
            Object key = TransactionKey.of(i);
            records.add(
                    i % 10 == 9
                            ? new SinkRecord(LEDGER, 0, TransactionKey.SCHEMA, key, null, "garbage", i)
                            : new SinkRecord(
                                    MARKERS,
                                    0,
                                    TransactionKey.SCHEMA,
                                    key,
                                    MarkerCodec.SCHEMA,
                                    MarkerCodec.toStruct(end(i)),
                                    i));
        }
        return records;
    }

    private static Marker.End end(long xid) {
        Lsn lsn = Lsn.valueOf(0x1000 + xid * 0x100);
        return new Marker.End(7, xid, lsn, lsn, 1_700_000_000_000_000L, 0, List.of(), null);
    }

    private final class RecordingReader implements PayloadReader {
        @Override
        public Object value(SinkRecord record) {
            running.incrementAndGet();
            try {
                readers.add(Thread.currentThread().getName());
                if (record.kafkaOffset() == failAt) {
                    failed.countDown();
                    throw new ConnectException("value of offset " + failAt + " is not bytes");
                }
                if (record.kafkaOffset() == stallAt) {
                    awaitStallWarned();
                }
                if (record.kafkaOffset() == slowAt) {
                    assertTrue(failed.await(30, TimeUnit.SECONDS), "the other slice failed");
                    returned.await(2, TimeUnit.SECONDS); // a correct decode() returns only after this slice
                }
                return record.value();
            } catch (InterruptedException e) {
                throw new AssertionError(e);
            } finally {
                running.decrementAndGet();
            }
        }

        private void awaitStallWarned() {
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(20);
            while (stalledWarnings(capture).isEmpty()) {
                assertTrue(System.nanoTime() < deadline, "the stalled slice was not warned of");
                LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(5));
            }
        }

        @Override
        public Object key(SinkRecord record) {
            return record.key();
        }
    }
}
