package dev.pglane.source.offset;

import dev.pglane.wire.Lsn;
import java.util.ArrayDeque;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.apache.kafka.connect.source.SourceRecord;

/**
 * Turns Kafka acknowledgements into the LSN the slot may confirm.
 *
 * <p>Records are numbered as they leave {@code poll()}, which is stream order. Producer callbacks
 * acknowledge them in any order, from several threads; only the contiguous acknowledged prefix counts,
 * and the newest END or HEARTBEAT position inside it is the flushable LSN: every record of every
 * transaction ending at or before it is then in Kafka. The reader thread reads that value and is the
 * only one to talk to the server. One tracker serves the whole task, across reconnects, because records
 * of an earlier session may still be acknowledged after a new one started.
 */
public final class AckTracker {
    /** Stands for "no confirm point" in {@link #ahead}, which cannot hold null meaningfully. */
    private static final Lsn NONE = Lsn.INVALID;

    private long dispatched;
    private long acknowledged;
    /** Acknowledged records beyond the prefix, by sequence, with their confirm point. */
    private final Map<Long, Lsn> ahead = new HashMap<>();
    /** Dispatched records from the first unacknowledged one on, in sequence order; Connect holds them anyway. */
    private final ArrayDeque<TrackedRecord> unacknowledged = new ArrayDeque<>();

    private volatile Lsn flushable = Lsn.INVALID;

    /** Numbers {@code records} in order; called by the poll thread before Connect sees them. */
    public synchronized void dispatch(List<SourceRecord> records) {
        for (SourceRecord record : records) {
            if (record instanceof TrackedRecord tracked) {
                tracked.sequence(dispatched++);
                unacknowledged.addLast(tracked);
            }
        }
    }

    /** Marks a record as written to Kafka. Records this tracker did not number are ignored. */
    public void acknowledge(SourceRecord record) {
        if (!(record instanceof TrackedRecord tracked) || tracked.sequence() < 0) {
            return;
        }
        advance(tracked.sequence(), tracked.confirmLsn() == null ? NONE : tracked.confirmLsn());
    }

    /** Adds one acknowledgement and moves the prefix, and with it the flushable LSN, as far as it goes. */
    private synchronized void advance(long sequence, Lsn confirm) {
        if (sequence < acknowledged || ahead.containsKey(sequence)) {
            return;
        }
        if (sequence != acknowledged) {
            ahead.put(sequence, confirm);
            return;
        }
        Lsn newest = confirm;
        acknowledged++;
        Lsn next;
        while ((next = ahead.remove(acknowledged)) != null) {
            if (next.isValid()) {
                newest = next;
            }
            acknowledged++;
        }
        if (newest.isValid() && newest.compareTo(flushable) > 0) {
            flushable = newest;
        }
        while (!unacknowledged.isEmpty() && unacknowledged.peekFirst().sequence() < acknowledged) {
            unacknowledged.pollFirst();
        }
    }

    /**
     * Counts {@code first} and every record dispatched after it as acknowledged, without a confirm point: they were in
     * a Kafka transaction that was aborted, and Kafka acknowledges no record of it that it had not written yet. None
     * of them may be an END or HEARTBEAT; the transaction they belong to is sent again, and its END confirms it.
     */
    public synchronized void abandon(SourceRecord first) {
        if (!(first instanceof TrackedRecord tracked) || tracked.sequence() < 0) {
            return;
        }
        for (long sequence = tracked.sequence(); sequence < dispatched; sequence++) {
            advance(sequence, NONE);
        }
    }

    /**
     * The first record Kafka has not acknowledged, as an operator would look for it; {@code null} when every
     * dispatched record is acknowledged. The slot is confirmed only up to the END before it.
     */
    public synchronized String firstUnacknowledged() {
        TrackedRecord first = unacknowledged.peekFirst();
        return first == null ? null : RecordDescription.of(first);
    }

    /** Names {@code record} for an error: the table and LSN of a change, the transaction of a marker. */
    public static String describe(SourceRecord record) {
        return RecordDescription.of(record);
    }

    /**
     * The newest END or HEARTBEAT LSN whose record, and every record before it, Kafka acknowledged;
     * {@link Lsn#INVALID} before the first. Never moves backwards.
     */
    public Lsn flushableLsn() {
        return flushable;
    }

    /** True when every dispatched record has been acknowledged. */
    public synchronized boolean allAcknowledged() {
        return acknowledged == dispatched;
    }
}
