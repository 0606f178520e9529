package dev.pglane.source.decode;

import dev.pglane.source.emit.FailureSlot;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.connect.errors.ConnectException;
import org.apache.kafka.connect.source.SourceRecord;

/**
 * N decoder threads, each with a bounded FIFO of item batches in and a bounded FIFO of record batches
 * out. The reader puts batch k into lane k mod N and the emitter takes batch k from lane k mod N, so
 * records leave in stream order without any sorting, however unevenly the lanes run. The queue
 * capacities bound the memory of the whole pipeline: a full lane stops the reader, which stops reading
 * the socket, which holds the server back.
 */
public final class DecoderLanes {
    private final List<Lane> lanes = new ArrayList<>();
    private final List<Thread> threads = new ArrayList<>();

    /**
     * @param connectorName names the threads {@code pglane-<connector>-lane-<i>}
     * @param queueCapacity batches each input and each output queue holds
     */
    public DecoderLanes(
            String connectorName,
            int count,
            int queueCapacity,
            BatchDecoder decoder,
            FailureSlot failures,
            LaneActivity activity) {
        for (int i = 0; i < count; i++) {
            Lane lane = new Lane(i, queueCapacity, decoder, failures, activity);
            lanes.add(lane);
            Thread thread = new Thread(lane, "pglane-" + connectorName + "-lane-" + i);
            thread.setDaemon(true);
            threads.add(thread);
        }
    }

    public void start() {
        threads.forEach(Thread::start);
    }

    public int count() {
        return lanes.size();
    }

    /** Hands a batch to a lane; false if its input queue stayed full for {@code timeout}. */
    public boolean offer(int lane, List<StreamItem> batch, long timeout, TimeUnit unit) throws InterruptedException {
        return lanes.get(lane).input.offer(batch, timeout, unit);
    }

    /** The lane's next record batch, or {@code null} if none is ready. */
    public List<SourceRecord> poll(int lane) {
        return lanes.get(lane).output.poll();
    }

    /** The lane's next record batch, waiting up to {@code timeout}; {@code null} if none came. */
    public List<SourceRecord> poll(int lane, long timeout, TimeUnit unit) throws InterruptedException {
        return lanes.get(lane).output.poll(timeout, unit);
    }

    /** Batches waiting in the lane's input queue. */
    public int queueDepth(int lane) {
        return lanes.get(lane).input.size();
    }

    /** Stops the threads, waiting up to {@code timeout} in all; what is still queued is dropped. */
    public void close(Duration timeout) {
        threads.forEach(Thread::interrupt);
        long deadline = System.nanoTime() + timeout.toNanos();
        for (Thread thread : threads) {
            long remaining = deadline - System.nanoTime();
            if (remaining <= 0) {
                return;
            }
            try {
                thread.join(Math.max(1, TimeUnit.NANOSECONDS.toMillis(remaining)));
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return;
            }
        }
    }

    /** One lane: takes a batch, decodes it, queues the records; stops at interrupt or at the first failure. */
    private static final class Lane implements Runnable {
        private final int index;
        private final BlockingQueue<List<StreamItem>> input;
        private final BlockingQueue<List<SourceRecord>> output;
        private final BatchDecoder decoder;
        private final FailureSlot failures;
        private final LaneActivity activity;

        Lane(int index, int capacity, BatchDecoder decoder, FailureSlot failures, LaneActivity activity) {
            this.index = index;
            this.input = new ArrayBlockingQueue<>(capacity);
            this.output = new ArrayBlockingQueue<>(capacity);
            this.decoder = decoder;
            this.failures = failures;
            this.activity = activity;
        }

        @Override
        public void run() {
            try {
                while (!Thread.currentThread().isInterrupted()) {
                    List<StreamItem> batch = input.take();
                    long start = System.nanoTime();
                    List<SourceRecord> records = decoder.decode(batch);
                    activity.decoded(index, System.nanoTime() - start);
                    output.put(records);
                }
            } catch (InterruptedException e) {
                // Asked to stop: the session is closing.
            } catch (ConnectException e) {
                failures.fail(e);
            } catch (Throwable e) { // an Error too: a lane that died quietly would stall the emitter for good
                failures.fail(new ConnectException("Decoder lane " + index + " failed: " + e, e));
            }
        }
    }
}
