package dev.pglane.source.emit;

import dev.pglane.source.decode.DecoderLanes;
import dev.pglane.source.offset.AckTracker;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.connect.source.SourceRecord;

/**
 * What {@code poll()} drains: record batch k from lane k mod N, exactly the round robin the reader
 * filled the lanes in, so records leave in stream order. Used by the poll thread only, apart from the
 * counters, which the reader reads to tell whether anything is still in flight.
 */
public final class OrderedEmitter {
    /** How long one wait on a lane lasts before the failure slot is checked again. */
    private static final long WAIT_SLICE_NANOS = TimeUnit.MILLISECONDS.toNanos(10);

    private final DecoderLanes lanes;
    private final FailureSlot failures;
    private final AckTracker acks;

    private int nextLane;
    /** A batch only partly handed out because a poll reached its record limit. */
    private List<SourceRecord> pending;

    private int pendingIndex;
    private volatile long emitted;
    private volatile Map<String, ?> lastOffset;

    public OrderedEmitter(DecoderLanes lanes, FailureSlot failures, AckTracker acks) {
        this.lanes = lanes;
        this.failures = failures;
        this.acks = acks;
    }

    /**
     * The next records in stream order: what is ready now, at most {@code maxRecords}, waiting up to
     * {@code maxWait} only while nothing at all is ready.
     *
     * @return the records, or an empty list if none came within {@code maxWait}
     * @throws org.apache.kafka.connect.errors.ConnectException the stored failure of the reader or a lane
     */
    public List<SourceRecord> poll(int maxRecords, Duration maxWait) throws InterruptedException {
        long deadline = System.nanoTime() + maxWait.toNanos();
        List<SourceRecord> out = new ArrayList<>();
        while (out.size() < maxRecords) {
            failures.rethrow();
            if (pending == null && !nextBatch(out.isEmpty() ? deadline : 0L)) {
                break;
            }
            int take = Math.min(maxRecords - out.size(), pending.size() - pendingIndex);
            out.addAll(pending.subList(pendingIndex, pendingIndex + take));
            pendingIndex += take;
            if (pendingIndex == pending.size()) {
                pending = null;
            }
        }
        if (!out.isEmpty()) {
            acks.dispatch(out);
            lastOffset = out.get(out.size() - 1).sourceOffset();
            emitted += out.size();
        }
        return out;
    }

    /** Takes the next lane's batch into {@link #pending}, waiting until {@code deadline} (0: not at all). */
    private boolean nextBatch(long deadline) throws InterruptedException {
        List<SourceRecord> batch = lanes.poll(nextLane);
        while (batch == null) {
            long remaining = deadline - System.nanoTime();
            if (deadline == 0L || remaining <= 0) {
                return false;
            }
            batch = lanes.poll(nextLane, Math.min(remaining, WAIT_SLICE_NANOS), TimeUnit.NANOSECONDS);
            failures.rethrow();
        }
        nextLane = (nextLane + 1) % lanes.count();
        pending = batch;
        pendingIndex = 0;
        return true;
    }

    /** Records handed to Connect so far. */
    public long emitted() {
        return emitted;
    }

    /** The source offset of the last record handed to Connect, or {@code null} before the first. */
    public Map<String, ?> lastOffset() {
        return lastOffset;
    }
}
