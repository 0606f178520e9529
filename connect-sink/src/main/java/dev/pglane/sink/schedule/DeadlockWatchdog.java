package dev.pglane.sink.schedule;

import dev.pglane.sink.schedule.WorkerStatus.Phase;
import java.sql.SQLException;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.connect.errors.ConnectException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Breaks commit-order deadlocks (parallel-apply.md R6 b). A later worker that applied its transaction
 * and waits in Java for its turn still holds its row locks; if the head transaction needs one of them,
 * neither can move and PostgreSQL cannot see the cycle. Every interval, if the head has been inside
 * {@code apply()} longer than an interval, this asks the server whom the head waits for; a later worker
 * among them is the victim (the later one always yields, as in MySQL): rolled back and re-run after
 * its predecessors if it waits for its turn, cancelled if it is still applying.
 */
final class DeadlockWatchdog implements Runnable {
    private static final Logger log = LoggerFactory.getLogger(DeadlockWatchdog.class);
    /** Least time between two reports of the same outside session blocking the head. */
    private static final long OUTSIDE_REPORT_GAP_NANOS = TimeUnit.SECONDS.toNanos(30);

    private final List<ApplyWorker> workers;
    private final CommitSequence sequence;
    private final BlockingProbe probe;
    private final ApplyListener listener;
    private final long intervalNanos;
    private final Duration interval;
    /** The status each victim had when last reported, so one deadlock is reported once. */
    private final Map<ApplyWorker, WorkerStatus> reported = new HashMap<>();
    /** When each outside session blocking the head was last reported, so a long wait is told now and then. */
    private final Map<Integer, Long> outsideReported = new HashMap<>();

    DeadlockWatchdog(
            List<ApplyWorker> workers,
            CommitSequence sequence,
            BlockingProbe probe,
            ApplyListener listener,
            Duration interval) {
        this.workers = List.copyOf(workers);
        this.sequence = sequence;
        this.probe = probe;
        this.listener = listener;
        this.interval = interval;
        this.intervalNanos = interval.toNanos();
    }

    @Override
    public void run() {
        try {
            while (!sequence.awaitHalt(interval)) {
                reportWaiting();
                check();
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } catch (Throwable e) {
            // without the check a commit-order deadlock would hold the sink forever, silently: stop instead
            sequence.fail(new ConnectException("The commit-order deadlock check failed: " + e, e));
        }
    }

    /** The head worker and its status as read once: the worker may move on while the check runs. */
    private record StuckHead(ApplyWorker worker, WorkerStatus status) {}

    /** One round: finds the head's blockers among later workers and resolves each. */
    void check() {
        long head = sequence.committed() + 1;
        StuckHead stuck = stuckHead(head);
        if (stuck == null) {
            return;
        }
        int[] blockers;
        try {
            blockers = probe.blockingPids(stuck.worker().backendPid());
        } catch (SQLException e) {
            log.warn(
                    "Could not read which sessions block backend {}",
                    stuck.worker().backendPid(),
                    e);
            return;
        }
        for (ApplyWorker worker : workers) {
            WorkerStatus status = worker.status();
            if (status.sequence() > head && contains(blockers, worker.backendPid())) {
                resolve(worker, status, stuck.status());
            }
        }
        reportOutside(stuck, blockers);
    }

    /**
     * Names the sessions outside the sink that the head waits for, at most every {@link #OUTSIDE_REPORT_GAP_NANOS}
     * each: nothing the sink does ends their locks, and lock_timeout only turns the wait into retries.
     */
    private void reportOutside(StuckHead stuck, int[] blockers) {
        long now = System.nanoTime();
        for (int pid : blockers) {
            if (isWorker(pid)) {
                continue;
            }
            Long last = outsideReported.get(pid);
            if (last != null && now - last < OUTSIDE_REPORT_GAP_NANOS) {
                continue;
            }
            outsideReported.put(pid, now);
            String who;
            try {
                who = probe.describe(pid);
            } catch (SQLException e) {
                who = "pid " + pid + " (not described: " + e.getMessage() + ")";
            }
            log.warn(
                    "{} has waited {} ms for a lock held outside the sink by {}; it is cancelled and retried after"
                            + " apply.lock.timeout.ms",
                    stuck.status().job().tx().describe(),
                    (now - stuck.status().sinceNanos()) / 1_000_000,
                    who);
            listener.blockedOutside(stuck.status().job().tx());
        }
        outsideReported.values().removeIf(at -> now - at > 10 * OUTSIDE_REPORT_GAP_NANOS);
    }

    private boolean isWorker(int pid) {
        for (ApplyWorker worker : workers) {
            if (worker.backendPid() == pid) {
                return true;
            }
        }
        return false;
    }

    private StuckHead stuckHead(long head) {
        long now = System.nanoTime();
        for (ApplyWorker worker : workers) {
            WorkerStatus status = worker.status();
            if (status.sequence() == head
                    && status.phase() == Phase.APPLYING
                    && now - status.sinceNanos() > intervalNanos) {
                return new StuckHead(worker, status);
            }
        }
        return null;
    }

    /** Reports the victim (once per deadlock, before acting, so the report precedes its re-run) and acts. */
    private void resolve(ApplyWorker victim, WorkerStatus status, WorkerStatus headStatus) {
        if (status.phase() != Phase.WAITING_TURN && status.phase() != Phase.APPLYING) {
            return;
        }
        if (!status.equals(reported.put(victim, status))) {
            log.info(
                    "Commit-order deadlock: {} waits for a lock of the later {}, which is rolled back and re-run",
                    headStatus.job().tx().describe(),
                    status.job().tx().describe());
            listener.deadlockResolved(status.job().tx());
        }
        if (status.phase() == Phase.WAITING_TURN) {
            victim.requestRerun(status.sequence());
            return;
        }
        try {
            probe.cancel(victim.backendPid());
        } catch (SQLException e) {
            log.warn(
                    "Could not cancel backend {} running {}",
                    victim.backendPid(),
                    status.job().tx().describe(),
                    e);
        }
    }

    private void reportWaiting() {
        int onDependencies = sequence.waitingForDependency(); // queued; a re-run waits on its worker
        int onTurn = 0;
        int busy = 0;
        for (ApplyWorker worker : workers) {
            Phase phase = worker.status().phase();
            onDependencies += phase == Phase.WAITING_DEPENDENCY ? 1 : 0;
            onTurn += phase == Phase.WAITING_TURN ? 1 : 0;
            busy += phase == Phase.IDLE ? 0 : 1;
        }
        listener.waiting(onDependencies, onTurn, busy);
    }

    private static boolean contains(int[] pids, int pid) {
        for (int candidate : pids) {
            if (candidate == pid) {
                return true;
            }
        }
        return false;
    }
}
