package dev.pglane.sink.schedule;

import java.time.Duration;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.NavigableMap;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.concurrent.locks.Condition;
import java.util.concurrent.locks.ReentrantLock;
import java.util.function.BooleanSupplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * What the scheduler's threads coordinate on: the submitted transactions no worker has taken yet, the
 * committed sequence, the transactions applied and waiting to commit, the first failure and the stop
 * request. One lock; a new transaction wakes one idle worker, and so does a transaction that applied
 * when another may start after it; a commit wakes only the workers waiting for that sequence (each
 * waiter has its own condition, registered under the sequence it waits for: with eight workers a
 * commit would otherwise wake seven threads for nothing), and the deadlock watchdog's timed wait wakes
 * only on a halt. Every wait reads as one loop over a plain predicate.
 */
final class CommitSequence {
    private static final Logger log = LoggerFactory.getLogger(CommitSequence.class);

    /**
     * How far into the queue a free worker looks for a runnable transaction: the head is the one that
     * matters for progress; the next few may be independent of everything in flight.
     */
    private static final int RUNNABLE_SCAN = 64;

    private final ReentrantLock lock = new ReentrantLock();
    private final Condition queued = lock.newCondition();
    /** For {@link #awaitIdle}: signalled on every commit. */
    private final Condition progressed = lock.newCondition();
    /** The workers' waits, by the sequence each waits to see committed. */
    private final NavigableMap<Long, List<Condition>> commitWaiters = new TreeMap<>();

    private final Condition halting = lock.newCondition();
    private final ArrayDeque<ScheduledTransaction> queue = new ArrayDeque<>();
    /** Transactions whose statements have all run and that wait to commit (none rolled back since). */
    private final TreeSet<Long> applied = new TreeSet<>();

    private long submitted;
    private volatile long committed;
    private volatile RuntimeException failure;
    private volatile boolean stopped;

    /**
     * Queues {@code job} and wakes an idle worker if it may start now. One that may not start yet wakes nobody: the
     * worker that commits (or, with overlap, applies) what it waits for comes to {@link #take} next and finds it, as
     * it finds any transaction that commit freed. Under a backlog nearly every transaction waits for one in flight,
     * and a worker woken for it would only look and sleep again.
     */
    void enqueue(ScheduledTransaction job) {
        lock.lock();
        try {
            submitted = job.sequence();
            queue.add(job);
            if (queue.size() <= RUNNABLE_SCAN && mayStart(job, appliedThrough())) {
                queued.signal();
            }
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

    /**
     * The lowest submitted transaction no worker has taken that may start, waiting for one; null once halted. A
     * transaction may start once its dependency has committed, or, if it {@linkplain ScheduledTransaction#mayOverlap
     * may overlap}, once its dependency and every transaction before that have applied: its statements then wait on
     * the locks they hold and run as soon as they commit, so a chain of dependent transactions on several workers
     * hides each commit's round trip behind the next one's statements. A transaction that may not start yet stays
     * queued rather than occupying a worker: without overlap, the worker that commits the dependency comes here next
     * and takes it, so a chain runs on one worker without a hand-over between threads, and the other workers stay
     * free for independent ones. The lowest uncommitted transaction can always start, so the queue cannot stall.
     */
    ScheduledTransaction take() throws InterruptedException {
        lock.lock();
        try {
            ScheduledTransaction job = firstRunnable();
            while (!halted() && job == null) {
                queued.await();
                job = firstRunnable();
            }
            if (halted()) {
                return null;
            }
            queue.removeFirstOccurrence(job);
            if (firstRunnable() != null) {
                queued.signal(); // one commit can free several: let another idle worker look
            }
            return job;
        } finally {
            lock.unlock();
        }
    }

    /** Queued transactions whose dependency has not committed yet. */
    int waitingForDependency() {
        lock.lock();
        try {
            int waiting = 0;
            for (ScheduledTransaction job : queue) {
                waiting += job.dependsOn() > committed ? 1 : 0;
            }
            return waiting;
        } finally {
            lock.unlock();
        }
    }

    /** The first of the oldest queued transactions that may start (see {@link #take}); null if none. */
    private ScheduledTransaction firstRunnable() {
        long appliedThrough = appliedThrough();
        int scanned = 0;
        for (ScheduledTransaction job : queue) {
            if (mayStart(job, appliedThrough)) {
                return job;
            }
            if (++scanned == RUNNABLE_SCAN) {
                return null;
            }
        }
        return null;
    }

    private boolean mayStart(ScheduledTransaction job, long appliedThrough) {
        return job.dependsOn() <= committed || (job.mayOverlap() && job.dependsOn() <= appliedThrough);
    }

    /** The highest sequence up to which every transaction has committed or applied. */
    private long appliedThrough() {
        long through = committed;
        for (long sequence : applied.tailSet(through, false)) {
            if (sequence != through + 1) {
                break;
            }
            through = sequence;
        }
        return through;
    }

    /**
     * {@code sequence}, which may overlap, has run all its statements and waits to commit: transactions that overlap
     * it may start. One that may not overlap is never marked, so nothing starts ahead of it.
     */
    void markApplied(long sequence) {
        lock.lock();
        try {
            applied.add(sequence);
            if (firstRunnable() != null) {
                queued.signal();
            }
        } finally {
            lock.unlock();
        }
    }

    /** {@code sequence} was rolled back: transactions that overlap it wait for its next attempt again. */
    void markRolledBack(long sequence) {
        lock.lock();
        try {
            applied.remove(sequence);
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
        Condition mine = null;
        try {
            while (!halted() && committed < sequence && !abandon.getAsBoolean()) {
                if (mine == null) {
                    mine = lock.newCondition();
                    commitWaiters
                            .computeIfAbsent(sequence, s -> new ArrayList<>(1))
                            .add(mine);
                }
                mine.await();
            }
            return !halted() && committed >= sequence;
        } finally {
            if (mine != null) {
                List<Condition> waiters = commitWaiters.get(sequence);
                waiters.remove(mine);
                if (waiters.isEmpty()) {
                    commitWaiters.remove(sequence);
                }
            }
            lock.unlock();
        }
    }

    /** Wakes every worker waiting on commits to re-check its predicate (an abandon flag changed). */
    void wake() {
        lock.lock();
        try {
            signalWaiters(commitWaiters);
        } finally {
            lock.unlock();
        }
    }

    void markCommitted(long sequence) {
        lock.lock();
        try {
            committed = sequence;
            applied.headSet(sequence, true).clear();
            signalWaiters(commitWaiters.headMap(sequence, true));
            progressed.signalAll();
        } finally {
            lock.unlock();
        }
    }

    /**
     * Stores {@code cause} unless a failure is stored already, and halts. The first failure is logged at once: the
     * task reports it only at its next call into the sink, and a task instance that Connect has given up on (a
     * zombie on a worker cut off from its group) may never make one.
     */
    void fail(RuntimeException cause) {
        halt(() -> {
            if (failure == null) {
                failure = cause;
                log.warn("Apply halted; nothing more commits until the task starts again: {}", cause.getMessage());
            }
        });
    }

    void stop() {
        halt(() -> stopped = true);
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
                remaining = progressed.awaitNanos(remaining);
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
                remaining = halting.awaitNanos(remaining);
            }
            return halted();
        } finally {
            lock.unlock();
        }
    }

    /** Applies {@code update} (which halts) under the lock and wakes every waiter of every kind. */
    private void halt(Runnable update) {
        lock.lock();
        try {
            update.run();
            queued.signalAll();
            progressed.signalAll();
            signalWaiters(commitWaiters);
            halting.signalAll();
        } finally {
            lock.unlock();
        }
    }

    private static void signalWaiters(Map<Long, List<Condition>> waiters) {
        for (List<Condition> conditions : waiters.values()) {
            conditions.forEach(Condition::signal);
        }
    }
}
