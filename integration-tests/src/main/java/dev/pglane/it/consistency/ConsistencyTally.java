package dev.pglane.it.consistency;

import dev.pglane.it.consistency.TransactionPlan.Operation;
import java.time.Duration;
import java.util.concurrent.atomic.AtomicLong;

/** What the sessions of one workload run have done so far; they count into it concurrently. */
final class ConsistencyTally {
    private final long seed;
    private final long begin = System.nanoTime();
    private final AtomicLong committed = new AtomicLong();
    private final AtomicLong rolledBack = new AtomicLong();
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

    void rolledBack() {
        rolledBack.incrementAndGet();
    }

    ConsistencyWorkload.Summary summary() {
        return new ConsistencyWorkload.Summary(
                seed,
                committed.get(),
                rolledBack.get(),
                rowChanges.get(),
                large.get(),
                Duration.ofNanos(System.nanoTime() - begin));
    }
}
