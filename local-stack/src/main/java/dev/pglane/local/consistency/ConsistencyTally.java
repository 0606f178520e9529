package dev.pglane.local.consistency;

import dev.pglane.local.consistency.TransactionPlan.Operation;
import java.time.Duration;
import java.util.concurrent.atomic.AtomicLong;

/** What the sessions of one workload run have done so far; they count into it concurrently. */
final class ConsistencyTally {
    private final long seed;
    private final long begin = System.nanoTime();
    private final AtomicLong committed = new AtomicLong();
    private final AtomicLong rolledBack = new AtomicLong();
    private final AtomicLong collisions = new AtomicLong();
    private final AtomicLong rowChanges = new AtomicLong();
    private final AtomicLong large = new AtomicLong();

    ConsistencyTally(long seed) {
        this.seed = seed;
    }

    void committed(long rows, TransactionPlan plan) {
        committed.incrementAndGet();
        rowChanges.addAndGet(rows);
        if (plan.steps().stream().anyMatch(step -> step.operation() == Operation.LARGE_GROUP)) {
            large.incrementAndGet();
        }
    }

    /** A transaction the client rolled back on purpose. */
    void rolledBack() {
        rolledBack.incrementAndGet();
    }

    /** A transaction the server rolled back: a deadlock or serialization failure with another session's. */
    void collided() {
        rolledBack.incrementAndGet();
        collisions.incrementAndGet();
    }

    ConsistencyWorkload.Summary summary() {
        return new ConsistencyWorkload.Summary(
                seed,
                committed.get(),
                rolledBack.get(),
                collisions.get(),
                rowChanges.get(),
                large.get(),
                Duration.ofNanos(System.nanoTime() - begin));
    }
}
