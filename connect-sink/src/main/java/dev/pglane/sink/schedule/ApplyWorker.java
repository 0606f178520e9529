package dev.pglane.sink.schedule;

import dev.pglane.connect.database.SqlStateClass;
import dev.pglane.sink.assemble.SourceTransaction;
import dev.pglane.sink.schedule.WorkerStatus.Phase;
import java.sql.SQLException;
import org.apache.kafka.connect.errors.ConnectException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One worker thread and the applier it owns: takes the next transaction that may start, applies it, waits for
 * its turn, commits. A transaction that started before its dependency committed (overlap) runs its statements
 * against rows its predecessors still hold. Any failure of such an attempt, and any failure behind the head, rolls
 * it back and applies it again once it is the head (every earlier one committed). A re-run at the head may wait for
 * a later transaction that overlapped it; the deadlock check rolls that one back.
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

    /** The first attempt starts at once ({@link CommitSequence#take} chose it); a re-run waits to be the head. */
    private void process(ScheduledTransaction job) throws InterruptedException {
        long waitFor = 0;
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
        boolean ahead = sequence.committed() < job.dependsOn();
        if (ahead) {
            listener.startedAhead(tx);
        }
        try {
            enter(job, Phase.APPLYING, attempt);
            open = true;
            applier.apply(tx, ahead);
            if (job.mayOverlap()) {
                sequence.markApplied(job.sequence()); // a barrier, say, lets nothing start before it committed
            }
            enter(job, Phase.WAITING_TURN, attempt);
            if (!sequence.awaitCommitted(job.sequence() - 1, () -> rerunRequested == job.sequence())) {
                return sequence.halted() ? Outcome.HALTED : rerun(job, "commit-order deadlock", false);
            }
            enter(job, Phase.COMMITTING, attempt);
            if (carriedByLater(job)) {
                applier.rollback(); // it wrote nothing; the next commit records a position past it
            } else {
                applier.commit(tx);
            }
            open = false;
        } catch (SQLException e) {
            return onFailure(job, e, ahead);
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
     * Whether {@code job} changes nothing on the target and a later transaction is already queued, which will record
     * a position past it. A sink applying a table group ({@code apply.scope}) gets many source transactions without
     * a row of its tables; a target commit each would cost it as much as a transaction that has rows. Its restart
     * position stays behind by these transactions only, and applying them again changes nothing. A snapshot chunk
     * with no rows still deletes its key range's rows, so it always commits.
     */
    private boolean carriedByLater(ScheduledTransaction job) {
        SourceTransaction tx = job.tx();
        return tx.changes().count() == 0 && tx.end().snapshot() == null && sequence.submitted() > job.sequence();
    }

    /**
     * Behind the head, or started before its dependency committed ({@code ahead}), any statement error may come from
     * running early (a lock wait cancelled, a deadlock with a later transaction, a row a predecessor had not committed
     * yet): re-run once at the head. At the head only transient errors are retried, {@code retryMax} times.
     */
    private Outcome onFailure(ScheduledTransaction job, SQLException e, boolean ahead) {
        SourceTransaction tx = job.tx();
        if (sequence.halted()) {
            return Outcome.HALTED;
        }
        if (SqlStateClass.of(e) == SqlStateClass.CONNECTION) {
            sequence.fail(ApplyFailures.connectionLost(tx, e));
            return Outcome.HALTED;
        }
        if (ahead || sequence.committed() < job.sequence() - 1) {
            log.debug("{} failed behind the head; it runs again after its predecessors", tx.describe(), e);
            return rerun(job, e.getMessage(), ahead);
        }
        if (TransientFailures.isTransient(e) && headRetries < retryMax) {
            headRetries++;
            log.info("Retrying {} ({} of {}): {}", tx.describe(), headRetries, retryMax, e.getMessage());
            return rerun(job, e.getMessage(), false);
        }
        sequence.fail(headRetries > 0 ? ApplyFailures.failed(tx, e, headRetries) : ApplyFailures.failed(tx, e));
        return Outcome.HALTED;
    }

    /** @param ahead the attempt started before its dependency committed: reported as such, not as a retry */
    private Outcome rerun(ScheduledTransaction job, String reason, boolean ahead) {
        SourceTransaction tx = job.tx();
        try {
            applier.rollback();
            open = false;
            sequence.markRolledBack(job.sequence());
        } catch (SQLException e) {
            sequence.fail(
                    SqlStateClass.of(e) == SqlStateClass.CONNECTION
                            ? ApplyFailures.connectionLost(tx, e)
                            : ApplyFailures.failed(tx, e));
            return Outcome.HALTED;
        }
        if (ahead) {
            listener.ranAhead(tx, reason);
        } else {
            listener.retried(tx, reason);
        }
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
