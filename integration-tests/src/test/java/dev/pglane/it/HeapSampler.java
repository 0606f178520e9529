package dev.pglane.it;

import java.lang.management.ManagementFactory;
import java.lang.management.MemoryMXBean;
import java.time.Duration;

/**
 * Samples the heap this JVM still uses after a full collection, at a fixed interval, on a daemon thread.
 *
 * <p>The Connect worker runs in the test JVM, so this is the connector's memory plus a roughly constant rest (the
 * broker, the test's consumer). "Used after {@code System.gc()}" is the live set: what the JVM cannot free, which
 * is what would grow if the connector buffered a transaction.
 */
final class HeapSampler implements AutoCloseable {
    private static final MemoryMXBean MEMORY = ManagementFactory.getMemoryMXBean();

    private final Thread thread;
    private final long interval;
    private volatile long max;
    private volatile int samples;
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

    /** The live heap now, in bytes. */
    static long liveHeap() {
        System.gc();
        return MEMORY.getHeapMemoryUsage().getUsed();
    }

    private void run() {
        while (!stopped) {
            long live = liveHeap();
            max = Math.max(max, live);
            samples++;
            try {
                Thread.sleep(interval);
            } catch (InterruptedException e) {
                return;
            }
        }
    }

    /** The largest live heap sampled so far, in bytes. */
    long max() {
        return max;
    }

    int samples() {
        return samples;
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
