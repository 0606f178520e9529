package dev.pglane.sink.assemble;

import java.util.Set;

/**
 * What the next transaction in commit order waits for ({@link TransactionAssembler#awaited()}).
 *
 * @param markers whether it waits for a marker (its END, or a later run's copy of it)
 * @param topics the topics whose records it waits for
 */
public record Awaited(boolean markers, Set<String> topics) {
    /** Nothing but the next END. */
    public static final Awaited END = new Awaited(true, Set.of());

    public Awaited {
        topics = Set.copyOf(topics);
    }
}
