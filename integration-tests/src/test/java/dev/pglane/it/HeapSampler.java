package dev.pglane.it;

import com.sun.management.GarbageCollectorMXBean;
import com.sun.management.GcInfo;
import java.lang.management.ManagementFactory;
import java.lang.management.MemoryType;
import java.lang.management.MemoryUsage;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.stream.Collectors;

/**
 * Samples the heap this JVM still uses after a full collection, at a fixed interval, on a daemon thread.
 *
 * <p>The Connect worker runs in the test JVM, so this is the connector's memory plus a roughly constant rest (the
 * broker, the test's consumer). The heap left after a full collection is the live set: what the JVM cannot free,
 * which is what would grow if the connector buffered a transaction.
 *
 * <p>{@code System.gc()} alone does not guarantee a full collection: G1 skips it without a word while any thread is
 * inside a JNI critical region, and the lz4 codec the producer, broker and consumer use compresses in one. The heap
 * "used" after such a call still holds all the garbage since the last collection (hundreds of MiB here). So a
 * sample counts only when the full collector's count moved, and it reads the heap as that collection left it.
 */
final class HeapSampler implements AutoCloseable {
    private static final int ATTEMPTS = 20;
    private static final AtomicInteger SKIPPED = new AtomicInteger();
    private static final GarbageCollectorMXBean FULL_COLLECTOR = fullCollector();
    private static final Set<String> HEAP_POOLS = ManagementFactory.getMemoryPoolMXBeans().stream()
            .filter(pool -> pool.getType() == MemoryType.HEAP)
            .map(pool -> pool.getName())
            .collect(Collectors.toUnmodifiableSet());

    private final Thread thread;
    private final long interval;
    private volatile long max;
    private volatile int samples;
    private volatile RuntimeException failure;
    private volatile boolean stopped;

    private HeapSampler(Duration interval) {
        this.interval = interval.toMillis();
        this.thread = new Thread(this::run, "heap-sampler");
        this.thread.setDaemon(true);
    }

    static HeapSampler start(Duration interval) {
        HeapSampler sampler = new HeapSampler(interval);
        sampler.thread.start();
        return sampler;
    }

    /**
     * The live heap now, in bytes: the heap left by a full collection this call requested and saw complete. A
     * collection the JVM skips is requested again a moment later.
     *
     * @throws IllegalStateException if no full collection completed in {@value #ATTEMPTS} attempts
     */
    static long liveHeap() {
        for (int attempt = 0; attempt < ATTEMPTS; attempt++) {
            long before = FULL_COLLECTOR.getCollectionCount();
            System.gc();
            GcInfo last = FULL_COLLECTOR.getLastGcInfo();
            if (FULL_COLLECTOR.getCollectionCount() > before && last != null) {
                return heapAfter(last);
            }
            SKIPPED.incrementAndGet();
            try {
                Thread.sleep(10);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                break;
            }
        }
        throw new IllegalStateException("no full collection completed in " + ATTEMPTS + " System.gc() calls");
    }

    private static long heapAfter(GcInfo collection) {
        long used = 0;
        for (Map.Entry<String, MemoryUsage> pool :
                collection.getMemoryUsageAfterGc().entrySet()) {
            if (HEAP_POOLS.contains(pool.getKey())) {
                used += pool.getValue().getUsed();
            }
        }
        return used;
    }

    /** The collector that does full collections: the one with the old generation among its pools. */
    private static GarbageCollectorMXBean fullCollector() {
        List<GarbageCollectorMXBean> collectors = ManagementFactory.getPlatformMXBeans(GarbageCollectorMXBean.class);
        return collectors.stream()
                .filter(collector -> collector.getName().contains("Old")
                        || collector.getName().contains("MarkSweep"))
                .findFirst()
                .orElseThrow(() -> new IllegalStateException("no full collector among "
                        + collectors.stream()
                                .map(GarbageCollectorMXBean::getName)
                                .toList()));
    }

    private void run() {
        while (!stopped) {
            try {
                max = Math.max(max, liveHeap());
            } catch (IllegalStateException e) {
                if (!stopped) {
                    failure = e;
                }
                return;
            }
            samples++;
            try {
                Thread.sleep(interval);
            } catch (InterruptedException e) {
                return;
            }
        }
    }

    /**
     * The largest live heap sampled so far, in bytes.
     *
     * @throws IllegalStateException if sampling stopped because no full collection would complete
     */
    long max() {
        if (failure != null) {
            throw failure;
        }
        return max;
    }

    int samples() {
        return samples;
    }

    /** How many requested full collections the JVM skipped, in this JVM so far. */
    static int skipped() {
        return SKIPPED.get();
    }

    @Override
    public void close() {
        stopped = true;
        thread.interrupt();
        try {
            thread.join();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
