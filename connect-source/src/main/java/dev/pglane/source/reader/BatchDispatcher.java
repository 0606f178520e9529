package dev.pglane.source.reader;

import dev.pglane.source.decode.DecoderLanes;
import dev.pglane.source.decode.StreamItem;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * Packs the reader's items into batches and hands batch k to lane k mod N, the order the emitter
 * collects them in. When a lane is full it waits in short slices, calling back between slices so the
 * reader can keep answering the server; it never reads more meanwhile, so TCP back-pressure reaches the
 * walsender.
 */
final class BatchDispatcher implements ItemSink {
    /** One wait on a full lane; between slices the reader may have to send a status update. */
    private static final long WAIT_SLICE_MILLIS = 10;

    /** Called between wait slices while a lane is full. */
    @FunctionalInterface
    interface WhileWaiting {
        /** Answers the server if due; throws InterruptedException when the session is stopping. */
        void waiting() throws InterruptedException, SQLException;
    }

    private final DecoderLanes lanes;
    private final int batchSize;
    private final WhileWaiting whileWaiting;

    private List<StreamItem> batch;
    private int nextLane;
    private long produced;
    private long waitedNanos;

    BatchDispatcher(DecoderLanes lanes, int batchSize, WhileWaiting whileWaiting) {
        this.lanes = lanes;
        this.batchSize = batchSize;
        this.whileWaiting = whileWaiting;
        this.batch = new ArrayList<>(batchSize);
    }

    @Override
    public void add(StreamItem item) throws InterruptedException, SQLException {
        batch.add(item);
        produced++;
        if (batch.size() >= batchSize) {
            flush();
        }
    }

    /** Hands over the partial batch, so that a quiet stream does not hold records back. */
    void flush() throws InterruptedException, SQLException {
        if (batch.isEmpty()) {
            return;
        }
        if (!lanes.offer(nextLane, batch, 0, TimeUnit.MILLISECONDS)) {
            long start = System.nanoTime();
            try {
                while (!lanes.offer(nextLane, batch, WAIT_SLICE_MILLIS, TimeUnit.MILLISECONDS)) {
                    whileWaiting.waiting();
                }
            } finally {
                waitedNanos += System.nanoTime() - start;
            }
        }
        nextLane = (nextLane + 1) % lanes.count();
        batch = new ArrayList<>(batchSize);
    }

    /** Items made so far in this session, handed over or still in the partial batch. */
    long produced() {
        return produced;
    }

    /** Time spent waiting for full lanes, in all: not busy time of the reader. */
    long waitedNanos() {
        return waitedNanos;
    }
}
