package dev.pglane.sink.schedule;

import dev.pglane.sink.assemble.SourceTransaction;

/**
 * Hooks for the sink's metrics. Called from the scheduler's threads: implementations must be
 * thread-safe and quick, and must not call back into the scheduler.
 */
public interface ApplyListener {

    /** Does nothing. */
    ApplyListener NONE = new ApplyListener() {};

    /**
     * {@code tx} committed as {@code sequence}; called in sequence order, before
     * {@link ApplyScheduler#committedSequence()} reaches it.
     *
     * @param rows the change records it applied
     */
    default void committed(SourceTransaction tx, long sequence, long rows) {}

    /**
     * A sample of the workers and the queue, taken every deadlock-check interval.
     *
     * @param onDependencies transactions that wait for an earlier conflicting one to commit: queued ones, and
     *     re-runs waiting on their workers
     * @param onTurn workers that applied their transaction and wait to commit in order
     * @param busyWorkers workers holding a transaction in any state
     */
    default void waiting(int onDependencies, int onTurn, int busyWorkers) {}

    /** {@code tx} was rolled back and will be applied again; {@code reason} says why. */
    default void retried(SourceTransaction tx, String reason) {}

    /** {@code tx} starts before a transaction it depends on has committed (overlap). */
    default void startedAhead(SourceTransaction tx) {}

    /**
     * {@code tx} started before a transaction it depends on committed, found that one's rows not yet as they will be
     * ({@code reason}), and will be applied again after it: the price of overlap, not a failure.
     */
    default void ranAhead(SourceTransaction tx, String reason) {}

    /** {@code victim} held a lock the head transaction waited for and was rolled back to break the cycle. */
    default void deadlockResolved(SourceTransaction victim) {}

    /** The head transaction {@code tx} waits for a lock that a session outside the sink holds. */
    default void blockedOutside(SourceTransaction tx) {}
}
