package dev.pglane.sink.decode;

import dev.pglane.sink.decode.RecordDecoder.Decoded;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collection;
import java.util.List;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReferenceArray;
import java.util.function.Supplier;
import java.util.stream.Collectors;
import org.apache.kafka.connect.errors.ConnectException;
import org.apache.kafka.connect.sink.SinkRecord;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Decodes a batch of records on the decode threads: the batch is cut into consecutive slices, each thread decodes
 * one, and the results come back in the batch's order. The task thread only hands the slices over and waits: it is
 * the sink's one serial stage, and decoding needs no order, so every record it decodes caps the rate on any number
 * of cores. Each slice has a {@link RecordDecoder} of its own, so no decoder is ever used by two threads at a time.
 * A batch too small to be worth the hand-over, or every batch when there are no decode threads, is decoded on the
 * task thread.
 *
 * <p>{@link #decode} is called from one thread at a time (the task's).
 */
public final class DecodeLanes implements AutoCloseable {
    private static final Logger log = LoggerFactory.getLogger(DecodeLanes.class);
    /** Fewest records per slice: below this, handing a slice to another thread costs more than decoding it. */
    static final int MIN_SLICE = 64;
    /** How long a slice may decode before the log says where it is, and again after each such while. */
    static final Duration STALL_WARN = Duration.ofSeconds(30);
    /** Frames of a stalled thread's stack the warning shows. */
    private static final int FRAMES_SHOWN = 4;

    /** The task thread's decoder, for a batch it decodes itself. */
    private final RecordDecoder own;
    /** One per decode thread: slice i is decoded by {@code decoders[i]}. */
    private final RecordDecoder[] decoders;

    private final ExecutorService threads;
    private final Duration stallWarn;

    /**
     * @param threads decode threads beside the calling one; 0 for none
     * @param decoders makes one decoder per slice
     * @param threadPrefix names the threads, {@code <prefix>-decode-<n>}
     */
    public DecodeLanes(int threads, Supplier<RecordDecoder> decoders, String threadPrefix) {
        this(threads, decoders, threadPrefix, STALL_WARN);
    }

    DecodeLanes(int threads, Supplier<RecordDecoder> decoders, String threadPrefix, Duration stallWarn) {
        this.stallWarn = stallWarn;
        this.own = decoders.get();
        this.decoders = new RecordDecoder[threads];
        Arrays.setAll(this.decoders, i -> decoders.get());
        this.threads = threads == 0 ? null : Executors.newFixedThreadPool(threads, namedDaemons(threadPrefix));
    }

    private static ThreadFactory namedDaemons(String prefix) {
        AtomicInteger next = new AtomicInteger();
        return task -> {
            Thread thread = new Thread(task, prefix + "-decode-" + next.getAndIncrement());
            thread.setDaemon(true);
            return thread;
        };
    }

    /**
     * The batch, decoded, in its order.
     *
     * @throws ConnectException if decoding failed other than by a record being unusable (which is a result), or
     *     the task thread was interrupted; every slice has ended by then
     */
    public List<Decoded> decode(Collection<SinkRecord> batch) {
        List<SinkRecord> records = batch instanceof List<SinkRecord> list ? list : new ArrayList<>(batch);
        int size = records.size();
        Decoded[] out = new Decoded[size];
        int slices = Math.min(decoders.length, size / MIN_SLICE);
        if (slices == 0) {
            decodeRange(own, records, out, 0, size);
            return Arrays.asList(out);
        }
        List<Future<?>> lanes = new ArrayList<>(slices);
        AtomicReferenceArray<Thread> decoding = new AtomicReferenceArray<>(slices);
        for (int slice = 0; slice < slices; slice++) {
            int index = slice;
            lanes.add(threads.submit(() -> {
                decoding.set(index, Thread.currentThread());
                decodeRange(decoders[index], records, out, bound(index, size, slices), bound(index + 1, size, slices));
            }));
        }
        RuntimeException failure = awaitAll(lanes, decoding, size);
        if (failure != null) {
            throw failure;
        }
        return Arrays.asList(out);
    }

    private static void decodeRange(RecordDecoder decoder, List<SinkRecord> records, Decoded[] out, int from, int to) {
        for (int i = from; i < to; i++) {
            out[i] = decoder.decode(records.get(i));
        }
    }

    private static int bound(int slice, int size, int slices) {
        return (int) ((long) size * slice / slices);
    }

    /**
     * Waits for every slice, also after a failure: a slice still running would share its decoder with the next batch.
     * A slice that takes longer than {@link #stallWarn} is named in the log with where its thread is, again after each
     * such while: a converter's call to a schema registry that never answers (a client without a timeout) would
     * otherwise hold the task without a word.
     *
     * @param decoding each slice's thread, once it started
     */
    private RuntimeException awaitAll(List<Future<?>> slices, AtomicReferenceArray<Thread> decoding, int records) {
        RuntimeException failure = null;
        boolean interrupted = false;
        long started = System.nanoTime();
        for (int i = 0; i < slices.size(); i++) {
            Future<?> slice = slices.get(i);
            while (true) {
                try {
                    slice.get(stallWarn.toMillis(), TimeUnit.MILLISECONDS);
                    break;
                } catch (TimeoutException e) {
                    warnStalled(decoding.get(i), records, started);
                } catch (InterruptedException e) {
                    interrupted = true;
                } catch (ExecutionException e) {
                    if (failure == null) {
                        failure = e.getCause() instanceof RuntimeException r
                                ? r
                                : new ConnectException("A decode thread failed: " + e.getCause(), e.getCause());
                    }
                    break;
                }
            }
        }
        if (interrupted) {
            Thread.currentThread().interrupt();
        }
        return failure;
    }

    private static void warnStalled(Thread thread, int records, long started) {
        StackTraceElement[] stack = thread == null ? new StackTraceElement[0] : thread.getStackTrace();
        log.warn(
                "Decoding a batch of {} records has taken {} s: decode thread {} is still at {}; the task applies"
                        + " nothing until it returns (a schema registry that does not answer, say)",
                records,
                TimeUnit.NANOSECONDS.toSeconds(System.nanoTime() - started),
                thread == null ? "(not started)" : thread.getName(),
                Arrays.stream(stack)
                        .limit(FRAMES_SHOWN)
                        .map(StackTraceElement::toString)
                        .collect(Collectors.joining(" < ")));
    }

    @Override
    public void close() {
        if (threads != null) {
            threads.shutdownNow();
        }
    }
}
