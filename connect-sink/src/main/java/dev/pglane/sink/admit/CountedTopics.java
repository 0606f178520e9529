package dev.pglane.sink.admit;

import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.function.LongSupplier;
import java.util.function.Predicate;
import java.util.function.Supplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Which of the topics an END counts records on a transaction waits for. Applying whole transactions ({@link
 * ApplyScope#TRANSACTION}), every change topic counts, also one not assigned yet: a topic {@code topics.regex} matches
 * is picked up only at the consumer's next metadata refresh, and applying without its records would lose them.
 * Applying a table group ({@link ApplyScope#CONSUMED_TOPICS}), the topics the configuration consumes count ({@code
 * topics} or {@code topics.regex}, assigned yet or not) and the others are passed over, which the log says once for
 * each. The messages topic counts whenever the configuration consumes it, assigned yet or not, in either scope: a
 * sequence's value travels there, and a transaction applied before its message arrives would lose it (the message
 * would then come as a duplicate of an applied transaction). Once the other sinks on the target are known ({@link NeighbourSinks}), {@link GroupCoverage} warns of a topic another sink applies
 * too, or one that no sink applies.
 *
 * <p>Called on the task thread only.
 */
public final class CountedTopics implements Predicate<String> {
    private static final Logger log = LoggerFactory.getLogger(CountedTopics.class);
    /** Topics seen, so that each is told of once; the names come from ENDs, so the set is bounded. */
    static final int TOLD_MAX = 10_000;

    private final String sink;
    private final ApplyScope scope;
    private final ConsumedTopics consumed;
    private final String messagesTopic;
    private final Set<String> told = new HashSet<>();
    private final GroupCoverage coverage;

    /** @param sink the sink's name, for the log */
    public CountedTopics(String sink, ApplyScope scope, ConsumedTopics consumed, String messagesTopic) {
        this(sink, scope, consumed, messagesTopic, System::nanoTime);
    }

    CountedTopics(
            String sink, ApplyScope scope, ConsumedTopics consumed, String messagesTopic, LongSupplier nanoClock) {
        this.coverage = new GroupCoverage(sink, consumed, nanoClock);
        this.sink = sink;
        this.scope = scope;
        this.consumed = consumed;
        this.messagesTopic = messagesTopic;
    }

    /** The other sinks on this target, once the apply pipeline has read them, and how to read them again. */
    public void neighbours(NeighbourSinks sinks, Supplier<NeighbourSinks> reader) {
        coverage.neighbours(sinks, reader);
    }

    @Override
    public boolean test(String topic) {
        if (topic.equals(messagesTopic)) {
            return consumed.includes(topic);
        }
        boolean counts = scope == ApplyScope.TRANSACTION || consumed.includes(topic);
        if (told.size() < TOLD_MAX && told.add(topic)) {
            List<NeighbourSinks.Neighbour> others = coverage.firstSeen(topic, counts);
            if (!counts) {
                log.info(
                        "pglane sink {} applies a table group (apply.scope=consumed_topics, {}): the records of source"
                                + " transactions on topic {} are not its share, it applies the rest of those"
                                + " transactions without them and leaves them to {}",
                        sink,
                        consumed,
                        topic,
                        others.isEmpty() ? "the sinks that consume that topic" : others);
            }
        } else if (!counts) {
            coverage.seenAgain(topic);
        }
        return counts;
    }
}
