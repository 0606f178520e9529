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
        lock.lock();
        try {
            submitted = job.sequence();
            queue.add(job);
            changed.signalAll();
        } finally {
            lock.unlock();
        }
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
        lock.lock();
        try {
            changed.signalAll();
        } finally {
            lock.unlock();
        }
    }

    void markCommitted(long sequence) {
        lock.lock();
        try {
            committed = sequence;
            changed.signalAll();
        } finally {
            lock.unlock();
        }
    }

    /** Stores {@code cause} unless a failure is stored already, and halts. */
    void fail(RuntimeException cause) {
        lock.lock();
        try {
            if (failure == null) {
                failure = cause;
            }
            changed.signalAll();
        } finally {
            lock.unlock();
        }
    }

    void stop() {
        lock.lock();
        try {
            stopped = true;
            changed.signalAll();
        } finally {
            lock.unlock();
        }
    }

    /** Waits until every submitted transaction committed or the scheduler failed; false on timeout. */
    boolean awaitIdle(Duration timeout) throws InterruptedException {
        long remaining = timeout.toNanos();
        lock.lock();
        try {
            while (failure == null && committed < submitted) {
                if (remaining <= 0) {
                    return false;
                }
                remaining = changed.awaitNanos(remaining);
            }
            return true;
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
}
