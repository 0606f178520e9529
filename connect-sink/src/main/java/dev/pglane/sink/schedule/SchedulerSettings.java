package dev.pglane.sink.schedule;

import java.time.Duration;
import java.util.Objects;

/**
 * How the apply scheduler runs.
 *
 * @param deadlockCheckInterval how long the head transaction may wait on a lock before the scheduler
 *     looks for a later worker it waits for; a commit-order deadlock is broken within about twice this
 * @param retryMax how many times the head transaction is retried after a deadlock, serialization
 *     failure, lock timeout or cancellation before the sink fails
 * @param historyMaxKeys how many keys (and tables) of committed-or-running transactions the
 *     dependency history may hold; beyond it the history is cleared and the next transaction waits
 *     for all earlier ones
 * @param threadPrefix names the threads {@code <threadPrefix>-worker-<i>} and
 *     {@code <threadPrefix>-deadlock-check}
 * @param overlap a transaction tracked by key may start once every earlier one it conflicts with has applied,
 *     before they commit (see {@link CommitSequence}); otherwise only once they have committed
 */
public record SchedulerSettings(
        Duration deadlockCheckInterval, int retryMax, int historyMaxKeys, String threadPrefix, boolean overlap) {

    public SchedulerSettings {
        Objects.requireNonNull(deadlockCheckInterval, "deadlockCheckInterval");
        Objects.requireNonNull(threadPrefix, "threadPrefix");
        if (deadlockCheckInterval.isNegative() || deadlockCheckInterval.isZero()) {
            throw new IllegalArgumentException("deadlockCheckInterval must be positive: " + deadlockCheckInterval);
        }
        if (retryMax < 0) {
            throw new IllegalArgumentException("retryMax must not be negative: " + retryMax);
        }
        if (historyMaxKeys < 1) {
            throw new IllegalArgumentException("historyMaxKeys must be positive: " + historyMaxKeys);
        }
    }
}
