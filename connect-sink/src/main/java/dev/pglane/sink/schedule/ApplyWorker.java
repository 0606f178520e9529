package dev.pglane.sink.schedule;

import dev.pglane.connect.database.SqlStateClass;
import dev.pglane.sink.assemble.SourceTransaction;
import dev.pglane.sink.schedule.WorkerStatus.Phase;
import java.sql.SQLException;
import org.apache.kafka.connect.errors.ConnectException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One worker thread and the applier it owns: takes the next transaction in sequence order, waits for
 * the transaction it depends on, applies it, waits for its turn, commits. A failed or deadlocked
 * transaction is rolled back and applied again once it is the head (every earlier one committed), so
 * a re-run never waits for a later transaction's locks.
 */
final class ApplyWorker implements Runnable {
    private static final Logger log = LoggerFactory.getLogger(ApplyWorker.class);

    private final TransactionApplier applier;
    private final CommitSequence sequence;
    private final ApplyListener listener;
    private final int retryMax;
    private volatile WorkerStatus status = WorkerStatus.IDLE;
    /** The sequence the deadlock check asked this worker to roll back and re-run. */
    private volatile long rerunRequested;
    /** A database transaction may be open on the applier. */
    private boolean open;
    /** Retries of the current transaction at the head. */
    private int headRetries;

    private enum Outcome {
        COMMITTED,
        RERUN,
        HALTED
    }

    ApplyWorker(TransactionApplier applier, CommitSequence sequence, ApplyListener listener, int retryMax) {
        this.applier = applier;
        this.sequence = sequence;
        this.listener = listener;
        this.retryMax = retryMax;
    }

    WorkerStatus status() {
        return status;
    }

    int backendPid() {
        return applier.backendPid();
    }

    /** Asks the worker to roll back {@code sequence} and re-run it after its predecessors. */
    void requestRerun(long sequenceNumber) {
        rerunRequested = sequenceNumber;
        sequence.wake();
    }

    @Override
    public void run() {
        try {
            for (ScheduledTransaction job = sequence.take(); job != null; job = sequence.take()) {
                process(job);
                status = WorkerStatus.IDLE;
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } catch (Throwable e) {
            // an Error anywhere, or a bug outside the applier's calls: a worker that died quietly would leave the
            // task RUNNING with nothing ever committing again
            sequence.fail(new ConnectException(Thread.currentThread().getName() + " failed: " + e, e));
        } finally {
            status = WorkerStatus.IDLE;
            rollbackQuietly();
            closeApplier();
        }
    }

    /** Closes the applier; also the scheduler's last resort for a worker that does not stop. */
    void closeApplier() {
        try {
            applier.close();
        } catch (RuntimeException e) {
            log.warn("Closing an apply session failed", e);
        }
    }

    private void process(ScheduledTransaction job) throws InterruptedException {
        long waitFor = job.dependsOn();
        headRetries = 0;
        for (int attempt = 1; ; attempt++) {
            enter(job, Phase.WAITING_DEPENDENCY, attempt);
            if (!sequence.awaitCommitted(waitFor, () -> false) || attempt(job, attempt) != Outcome.RERUN) {
                return;
            }
            waitFor = job.sequence() - 1;
        }
    }

    private Outcome attempt(ScheduledTransaction job, int attempt) throws InterruptedException {
        SourceTransaction tx = job.tx();
        try {
            enter(job, Phase.APPLYING, attempt);
            open = true;
            applier.apply(tx);
            enter(job, Phase.WAITING_TURN, attempt);
            if (!sequence.awaitCommitted(job.sequence() - 1, () -> rerunRequested == job.sequence())) {
                return sequence.halted() ? Outcome.HALTED : rerun(tx, "commit-order deadlock");
            }
            enter(job, Phase.COMMITTING, attempt);
            applier.commit(tx);
            open = false;
        } catch (SQLException e) {
            return onFailure(job, e);
        } catch (RuntimeException e) {
            if (!sequence.halted()) {
                sequence.fail(ApplyFailures.failed(tx, e));
            }
            return Outcome.HALTED;
        }
        notifyCommitted(job);
        sequence.markCommitted(job.sequence());
        return Outcome.COMMITTED;
    }

    /**
     * Behind the head, any statement error may come from running early (a lock wait cancelled, a
     * deadlock with a later transaction): re-run once at the head. At the head only transient errors
     * are retried, {@code retryMax} times.
     */
    private Outcome onFailure(ScheduledTransaction job, SQLException e) {
        SourceTransaction tx = job.tx();
        if (sequence.halted()) {
            return Outcome.HALTED;
        }
        if (SqlStateClass.of(e) == SqlStateClass.CONNECTION) {
            sequence.fail(ApplyFailures.connectionLost(tx, e));
            return Outcome.HALTED;
        }
        if (sequence.committed() < job.sequence() - 1) {
            log.debug("{} failed behind the head; it runs again after its predecessors", tx.describe(), e);
            return rerun(tx, e.getMessage());
        }
        if (TransientFailures.isTransient(e) && headRetries < retryMax) {
            headRetries++;
            log.info("Retrying {} ({} of {}): {}", tx.describe(), headRetries, retryMax, e.getMessage());
            return rerun(tx, e.getMessage());
        }
        sequence.fail(headRetries > 0 ? ApplyFailures.failed(tx, e, headRetries) : ApplyFailures.failed(tx, e));
        return Outcome.HALTED;
    }

    private Outcome rerun(SourceTransaction tx, String reason) {
        try {
            applier.rollback();
            open = false;
        } catch (SQLException e) {
            sequence.fail(
                    SqlStateClass.of(e) == SqlStateClass.CONNECTION
                            ? ApplyFailures.connectionLost(tx, e)
                            : ApplyFailures.failed(tx, e));
            return Outcome.HALTED;
        }
        listener.retried(tx, reason);
        return Outcome.RERUN;
    }

    private void notifyCommitted(ScheduledTransaction job) {
        try {
            listener.committed(job.tx(), job.sequence(), job.tx().changes().count());
        } catch (RuntimeException e) {
            log.warn("The apply listener failed on {}", job.tx().describe(), e);
        }
    }

    private void enter(ScheduledTransaction job, Phase phase, int attempt) {
        status = new WorkerStatus(job, phase, attempt, System.nanoTime());
    }

    private void rollbackQuietly() {
        if (!open) {
            return;
        }
        try {
            applier.rollback();
        } catch (SQLException | RuntimeException e) {
            log.debug("Rolling back on stop failed; the session is closed next", e);
        }
        open = false;
    }
}
