package dev.pglane.sink.schedule;

import dev.pglane.sink.assemble.SourceTransaction;
import java.sql.SQLException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.Function;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Applies source transactions on several sessions at once while committing them strictly in the order
 * they were submitted (their source commit order, parallel-apply.md R1): each transaction gets the
 * next sequence number and runs on a free worker once every earlier transaction it conflicts with has
 * committed, or, with overlap, has applied and waits to commit. A stored failure stops everything; the
 * task then closes the scheduler and, for a {@link org.apache.kafka.connect.errors.RetriableException},
 * resubmits the uncommitted transactions to a new one.
 *
 * <p>{@link #submit} is called from one thread (the task's); the other methods from any thread.
 * The scheduler never closes a transaction's {@code changes()}: the caller owns them, and a committed
 * transaction can be released once {@link #committedSequence()} reaches its sequence.
 */
public final class ApplyScheduler implements AutoCloseable {
    private static final Logger log = LoggerFactory.getLogger(ApplyScheduler.class);
    /** How long close() waits for a worker before cancelling its statement, and again after. */
    private static final Duration CLOSE_GRACE = Duration.ofSeconds(2);

    private final Function<SourceTransaction, WriteSet> writeSets;
    private final BlockingProbe probe;
    private final CommitSequence sequence = new CommitSequence();
    private final DependencyTracker dependencies;
    private final List<ApplyWorker> workers = new ArrayList<>();
    private final List<Thread> workerThreads = new ArrayList<>();
    private final Thread watchdogThread;
    private final AtomicBoolean closed = new AtomicBoolean();
    private final boolean overlap;

    /**
     * Starts one thread per applier and the deadlock check; the scheduler owns the appliers from now on.
     *
     * @param writeSets what each transaction writes, see {@link WriteSetBuilder}
     */
    public ApplyScheduler(
            List<TransactionApplier> workers,
            BlockingProbe probe,
            Function<SourceTransaction, WriteSet> writeSets,
            SchedulerSettings settings,
            ApplyListener listener) {
        if (workers.isEmpty()) {
            throw new IllegalArgumentException("at least one applier is needed");
        }
        this.writeSets = writeSets;
        this.probe = probe;
        this.overlap = settings.overlap();
        this.dependencies = new DependencyTracker(settings.historyMaxKeys());
        for (TransactionApplier applier : workers) {
            ApplyWorker worker = new ApplyWorker(applier, sequence, listener, settings.retryMax());
            Thread thread = new Thread(worker, settings.threadPrefix() + "-worker-" + this.workers.size());
            thread.setDaemon(true);
            this.workers.add(worker);
            workerThreads.add(thread);
        }
        DeadlockWatchdog watchdog =
                new DeadlockWatchdog(this.workers, sequence, probe, listener, settings.deadlockCheckInterval());
        watchdogThread = new Thread(watchdog, settings.threadPrefix() + "-deadlock-check");
        watchdogThread.setDaemon(true);
        workerThreads.forEach(Thread::start);
        watchdogThread.start();
    }

    /**
     * Queues {@code tx} behind every transaction submitted before it, without waiting. After a failure
     * it is still accepted and counted in flight, but never runs: {@link #checkFailure()} reports.
     *
     * @return its sequence: 1 for the first transaction, then 2, 3, ...
     * @throws IllegalStateException if the scheduler is closed
     */
    public synchronized long submit(SourceTransaction tx) {
        if (closed.get()) {
            throw new IllegalStateException("the apply scheduler is closed");
        }
        WriteSet writes = writeSets.apply(tx);
        long next = sequence.submitted() + 1;
        long dependsOn = dependencies.register(next, writes, sequence.committed());
        if (writes.isBarrier()) {
            log.debug("{} runs alone: {}", tx.describe(), writes);
        }
        sequence.enqueue(new ScheduledTransaction(next, dependsOn, mayOverlap(tx, writes), tx));
        return next;
    }

    /**
     * Whether {@code tx} may start once what it depends on has applied, before it commits. Only a transaction whose
     * every row is tracked by key: its statements then wait on the rows' locks as its predecessors hold them, and
     * any row it finds otherwise than it expects sends it back to run after them ({@link TransactionApplier#apply}).
     * A barrier, a snapshot chunk (which deletes its key range's stray rows) and a table changed without a key start
     * only once everything they wait for has committed.
     */
    private boolean mayOverlap(SourceTransaction tx, WriteSet writes) {
        return overlap
                && !writes.isBarrier()
                && writes.tableWide().isEmpty()
                && tx.end().snapshot() == null;
    }

    /** The highest committed sequence; every lower one has committed too. */
    public long committedSequence() {
        return sequence.committed();
    }

    /** Transactions submitted and not yet committed. */
    public int inFlight() {
        return Math.toIntExact(sequence.submitted() - sequence.committed());
    }

    /**
     * Throws the stored failure: a {@link org.apache.kafka.connect.errors.RetriableException} if a
     * session lost its connection, else a {@link org.apache.kafka.connect.errors.ConnectException};
     * both name the transaction and the cause.
     */
    public void checkFailure() {
        RuntimeException failure = sequence.failure();
        if (failure != null) {
            throw failure;
        }
    }

    /**
     * Waits until every submitted transaction committed or the scheduler failed; false on timeout, or
     * at once if closed with transactions uncommitted.
     */
    public boolean awaitIdle(Duration timeout) throws InterruptedException {
        return sequence.awaitIdle(timeout);
    }

    /**
     * Stops the threads: workers roll back what they have not committed and close their appliers. A
     * worker stuck in a statement gets it cancelled; one that still does not stop has its applier
     * closed from here, which breaks its connection.
     */
    @Override
    public void close() {
        if (!closed.compareAndSet(false, true)) {
            return;
        }
        sequence.stop();
        boolean interrupted = false;
        for (int i = 0; i < workers.size(); i++) {
            interrupted |= stopWorker(workers.get(i), workerThreads.get(i));
        }
        try {
            watchdogThread.join(CLOSE_GRACE.toMillis());
        } catch (InterruptedException e) {
            interrupted = true;
        }
        if (interrupted) {
            Thread.currentThread().interrupt();
        }
    }

    /** Returns true if interrupted while waiting. */
    private boolean stopWorker(ApplyWorker worker, Thread thread) {
        try {
            thread.join(CLOSE_GRACE.toMillis());
            if (thread.isAlive()) {
                cancelQuietly(worker.backendPid());
                thread.join(CLOSE_GRACE.toMillis());
            }
        } catch (InterruptedException e) {
            return true;
        } finally {
            if (thread.isAlive()) {
                log.warn("{} did not stop; closing its session", thread.getName());
                worker.closeApplier();
            }
        }
        return false;
    }

    private void cancelQuietly(int pid) {
        try {
            probe.cancel(pid);
        } catch (SQLException e) {
            log.warn("Could not cancel backend {} while stopping", pid, e);
        }
    }
}
