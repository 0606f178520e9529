package dev.pglane.source.pace;

import java.util.ArrayDeque;
import java.util.Deque;
import java.util.Map;
import org.apache.kafka.common.TopicPartition;

/**
 * A consumer group's lag in time: the records it has left, over the rate at which it consumed (committed) records in
 * the last {@link #WINDOW_NANOS} ({@link #rate}, {@link #holds}). Records of different tables cost a sink very different times (a wide row many times
 * a narrow one), so a limit in records would mean seconds for one table and a fraction of one for another; the rate
 * it has shown lately turns the count into the time that the stream's next change would wait behind it.
 */
final class LagWindow {
    static final long WINDOW_NANOS = 5_000_000_000L;
    /** Less history than this gives no rate: the first commits of a sink that just started say little. */
    static final long MIN_HISTORY_NANOS = 2_000_000_000L;

    private record Reading(long nanos, Map<TopicPartition, Long> committed) {}

    private final Deque<Reading> readings = new ArrayDeque<>();

    /** A reading of the group's committed offsets at {@code nanos}. */
    void add(long nanos, Map<TopicPartition, Long> committed) {
        readings.addLast(new Reading(nanos, Map.copyOf(committed)));
        while (readings.size() > 2 && nanos - readings.peekFirst().nanos() > WINDOW_NANOS) {
            readings.removeFirst();
        }
    }

    /**
     * Whether new chunks wait: the group's lag, {@code left} records at {@code rate} a second, amounts to more than
     * {@code maxSeconds}; or chunks already started ({@code outstanding} records, which the group's topics do not show
     * yet) would take it there. At least one chunk may be out while the lag alone is within the limit, however large a
     * chunk is. While the rate is unknown (NaN: a group that has not committed yet, or not for long enough) one chunk
     * at a time goes out, as a cautious start; an unknown lag ({@code left} below 0: it could not be read) holds
     * nothing. A group that has records left and consumed none over the window holds everything (a paused or failed
     * sink); one with nothing left is never behind.
     */
    static boolean holds(long left, double rate, long outstanding, double maxSeconds) {
        if (left < 0) {
            return false;
        }
        if (Double.isNaN(rate)) {
            return outstanding > 0;
        }
        if (rate == 0) {
            return left > 0;
        }
        return left / rate > maxSeconds || (outstanding > 0 && (left + outstanding) / rate > maxSeconds);
    }

    /** The records the group consumed a second over the window; NaN while the history is too short. */
    double rate() {
        Reading newest = readings.peekLast();
        Reading oldest = readings.peekFirst();
        if (newest == null || newest.nanos() - oldest.nanos() < MIN_HISTORY_NANOS) {
            return Double.NaN;
        }
        return GroupLag.consumed(oldest.committed(), newest.committed()) / ((newest.nanos() - oldest.nanos()) / 1e9);
    }
}
