package dev.pglane.sink.schedule;

import java.time.Duration;
import java.util.ArrayDeque;
import java.util.concurrent.locks.Condition;
import java.util.concurrent.locks.ReentrantLock;
import java.util.function.BooleanSupplier;

/**
 * What the scheduler's threads coordinate on: the submitted transactions no worker has taken yet, the
 * committed sequence, the first failure and the stop request. One lock and one condition, signalled
 * on every change: with a handful of workers waking them all is cheap, and every wait reads as one
 * loop over a plain predicate.
 */
final class CommitSequence {
    private final ReentrantLock lock = new ReentrantLock();
    private final Condition changed = lock.newCondition();
    private final ArrayDeque<ScheduledTransaction> queue = new ArrayDeque<>();
    private long submitted;
    private volatile long committed;
    private volatile RuntimeException failure;
    private volatile boolean stopped;

    void enqueue(ScheduledTransaction job) {
        change(() -> {
            submitted = job.sequence();
            queue.add(job);
        });
    }

    long submitted() {
        lock.lock();
        try {
            return submitted;
        } finally {
            lock.unlock();
        }
    }

    long committed() {
        return committed;
    }

    RuntimeException failure() {
        return failure;
    }

    /** True once the scheduler failed or was asked to stop: nothing more may commit. */
    boolean halted() {
        return stopped || failure != null;
    }

    /** The lowest submitted transaction no worker has taken, waiting for one; null once halted. */
    ScheduledTransaction take() throws InterruptedException {
        lock.lock();
        try {
            while (!halted() && queue.isEmpty()) {
                changed.await();
            }
            return halted() ? null : queue.poll();
        } finally {
            lock.unlock();
        }
    }

    /**
     * Waits until {@code sequence} has committed.
     *
     * @param abandon checked on every wake-up; when it turns true the wait ends
     * @return true if {@code sequence} committed; false if halted or abandoned first
     */
    boolean awaitCommitted(long sequence, BooleanSupplier abandon) throws InterruptedException {
        lock.lock();
        try {
            while (!halted() && committed < sequence && !abandon.getAsBoolean()) {
                changed.await();
            }
            return !halted() && committed >= sequence;
        } finally {
            lock.unlock();
        }
    }

    /** Wakes every waiter to re-check its predicate (an abandon flag changed). */
    void wake() {
        change(() -> {});
    }

    void markCommitted(long sequence) {
        change(() -> committed = sequence);
    }

    /** Stores {@code cause} unless a failure is stored already, and halts. */
    void fail(RuntimeException cause) {
        change(() -> {
            if (failure == null) {
                failure = cause;
            }
        });
    }

    void stop() {
        change(() -> stopped = true);
    }

    /**
     * Waits until every submitted transaction committed or the scheduler failed: true then; false on
     * timeout, or at once if stopped with transactions left.
     */
    boolean awaitIdle(Duration timeout) throws InterruptedException {
        long remaining = timeout.toNanos();
        lock.lock();
        try {
            while (!halted() && committed < submitted && remaining > 0) {
                remaining = changed.awaitNanos(remaining);
            }
            return committed >= submitted || failure != null;
        } finally {
            lock.unlock();
        }
    }

    /** Waits up to {@code timeout} for the scheduler to halt; true if it has. */
    boolean awaitHalt(Duration timeout) throws InterruptedException {
        long remaining = timeout.toNanos();
        lock.lock();
        try {
            while (!halted() && remaining > 0) {
                remaining = changed.awaitNanos(remaining);
            }
            return halted();
        } finally {
            lock.unlock();
        }
    }

    /** Applies {@code update} under the lock and wakes every waiter. */
    private void change(Runnable update) {
        lock.lock();
        try {
            update.run();
            changed.signalAll();
        } finally {
            lock.unlock();
        }
    }
}
