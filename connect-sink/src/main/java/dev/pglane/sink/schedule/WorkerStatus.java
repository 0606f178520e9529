package dev.pglane.sink.schedule;

/**
 * What a worker is doing, published as one immutable value so the deadlock check reads a consistent
 * picture.
 *
 * @param job the transaction it holds, null when idle
 * @param phase where in that transaction's life it is
 * @param attempt counts the attempts at {@code job}, from 1
 * @param sinceNanos {@link System#nanoTime()} when it entered {@code phase}
 */
record WorkerStatus(ScheduledTransaction job, Phase phase, int attempt, long sinceNanos) {

    static final WorkerStatus IDLE = new WorkerStatus(null, Phase.IDLE, 0, 0);

    enum Phase {
        IDLE,
        /** Waiting for the transaction it depends on (or, when re-run, for its predecessor) to commit. */
        WAITING_DEPENDENCY,
        /** Inside {@link TransactionApplier#apply}: it may hold row locks and wait for others. */
        APPLYING,
        /** Applied, holding its locks, waiting for its predecessor to commit. */
        WAITING_TURN,
        COMMITTING
    }

    long sequence() {
        return job == null ? 0 : job.sequence();
    }
}
