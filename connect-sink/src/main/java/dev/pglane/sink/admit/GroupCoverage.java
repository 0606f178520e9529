package dev.pglane.sink.admit;

import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.function.LongSupplier;
import java.util.function.Supplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Warns when this sink and the others on its target ({@link NeighbourSinks}) apply a topic twice, or a topic this
 * group passes over is applied by none. Sinks of a new set of groups start one after another, so a neighbour may not
 * have recorded its group yet when this one first sees a topic: a topic no one applies is read again for {@link
 * #GRACE} before the warning, as the topic keeps coming. An overlap is told at once; a sink that records its group
 * later is told by that sink. Called on the task thread only.
 */
final class GroupCoverage {
    private static final Logger log = LoggerFactory.getLogger(GroupCoverage.class);
    /** How long a topic may stay without a sink before the warning. */
    static final Duration GRACE = Duration.ofSeconds(60);
    /** The least time between two reads of the neighbours. */
    static final Duration REREAD = Duration.ofSeconds(10);

    private final String sink;
    private final ConsumedTopics consumed;
    private final LongSupplier nanoClock;
    private NeighbourSinks neighbours = NeighbourSinks.UNKNOWN;
    private Supplier<NeighbourSinks> reread = () -> NeighbourSinks.UNKNOWN;
    private long readAt;
    /** Passed-over topics no sink applied when last read, with when each was first seen. */
    private final Map<String, Long> uncovered = new HashMap<>();

    GroupCoverage(String sink, ConsumedTopics consumed, LongSupplier nanoClock) {
        this.sink = sink;
        this.consumed = consumed;
        this.nanoClock = nanoClock;
    }

    /** The neighbours as just read, and how to read them again. */
    void neighbours(NeighbourSinks sinks, Supplier<NeighbourSinks> reader) {
        neighbours = sinks;
        reread = reader;
        readAt = nanoClock.getAsLong();
    }

    /**
     * The first transaction with records on {@code topic}: warns if another sink applies it too while this one does.
     *
     * @param counts whether this sink applies the topic
     * @return the other sinks that apply it
     */
    List<NeighbourSinks.Neighbour> firstSeen(String topic, boolean counts) {
        List<NeighbourSinks.Neighbour> others = neighbours.applying(topic);
        if (counts && !others.isEmpty()) {
            log.warn(
                    "pglane sink {} applies topic {}, and so does {} on the same target: each writes the topic's table"
                            + " in its own time, so its rows can step back to an older state while one trails the"
                            + " other. Give each topic to one sink's topics or topics.regex ({})",
                    sink,
                    topic,
                    others,
                    neighbours);
        } else if (!counts && others.isEmpty() && neighbours.known() && uncovered.size() < CountedTopics.TOLD_MAX) {
            uncovered.put(topic, nanoClock.getAsLong());
        }
        return others;
    }

    /** A later transaction with records on {@code topic}, which this sink passes over. */
    void seenAgain(String topic) {
        Long since = uncovered.get(topic);
        if (since == null) {
            return;
        }
        long now = nanoClock.getAsLong();
        if (now - readAt >= REREAD.toNanos()) {
            neighbours = reread.get();
            readAt = now;
        }
        if (!neighbours.applying(topic).isEmpty()) {
            uncovered.remove(topic);
        } else if (now - since >= GRACE.toNanos()) {
            uncovered.remove(topic);
            log.warn(
                    "pglane sink {} applies a table group ({}) and no sink applies topic {} to this target ({}): the"
                            + " records of source transactions on it reach no table here. Add the topic to a group, or"
                            + " start a sink for it",
                    sink,
                    consumed,
                    topic,
                    neighbours);
        }
    }
}
