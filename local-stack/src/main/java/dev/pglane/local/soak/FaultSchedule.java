package dev.pglane.local.soak;

import dev.pglane.local.consistency.ConsistencyWorkload;
import dev.pglane.local.stack.ConnectorStatus;
import java.io.PrintStream;
import java.sql.SQLException;
import java.util.Random;

/**
 * The soak's faults over time: a pause of about {@link SoakOptions#faultInterval()} (half to one and a half times
 * it), a fault drawn at random, and so on until the soak's duration is over. Throughout, every two seconds, it
 * checks that the workload's sessions still run and that no connector task has failed. A failed task is recorded
 * (a fault that needs an operator is a failure of the soak) and restarted, so the run can show what else happens.
 */
final class FaultSchedule {
    private static final long WATCH_MILLIS = 2_000;

    private final SoakStack stack;
    private final SoakSummary summary;
    private final PrintStream out;
    private final SoakOptions options;
    private final long begin;
    private final Random random;
    private SoakFault lastFault;

    FaultSchedule(SoakStack stack, SoakSummary summary, PrintStream out, SoakOptions options, long begin) {
        this.stack = stack;
        this.summary = summary;
        this.out = out;
        this.options = options;
        this.begin = begin;
        this.random = new Random(options.seed());
    }

    void run(ConsistencyWorkload.Running workload) throws Exception {
        long end = begin + options.duration().toNanos();
        while (true) {
            long pause = (long) (options.faultInterval().toNanos() * (0.5 + random.nextDouble()));
            long next = Math.min(System.nanoTime() + pause, end);
            if (!watchUntil(next, workload) || System.nanoTime() >= end) {
                return;
            }
            SoakFault fault = SoakFault.draw(random);
            log("fault " + (summary.faultCount() + 1) + ": " + fault.description() + "; so far " + workload.summary());
            fault.inject(stack, random);
            summary.injected(fault);
            lastFault = fault;
        }
    }

    /** Watches until {@code deadline}; false if the workload has failed and the soak cannot go on. */
    private boolean watchUntil(long deadline, ConsistencyWorkload.Running workload) throws InterruptedException {
        while (System.nanoTime() < deadline) {
            try {
                workload.throwIfFailed();
            } catch (SQLException | RuntimeException e) {
                summary.workloadFailed(e.getMessage());
                log("the workload failed: " + e.getMessage());
                return false;
            }
            restartFailedTasks(stack.sourceConnector());
            restartFailedTasks(stack.sinkConnector());
            Thread.sleep(Math.min(WATCH_MILLIS, Math.max(1, (deadline - System.nanoTime()) / 1_000_000)));
        }
        return true;
    }

    private void restartFailedTasks(String connector) {
        ConnectorStatus status;
        try {
            status = stack.rest().status(connector);
        } catch (RuntimeException e) {
            return; // the worker is busy (a broker restart): ask again at the next watch
        }
        for (ConnectorStatus.Task task : status.tasks()) {
            if (ConnectorStatus.FAILED.equals(task.state())) {
                String trace = task.trace() == null
                        ? ""
                        : task.trace().lines().findFirst().orElse("");
                String what = connector + " task " + task.id() + " failed after "
                        + (lastFault == null ? "no fault" : lastFault.description()) + ": " + trace;
                summary.taskFailed(what);
                log(what + "; restarting it");
                try {
                    stack.rest().restartTask(connector, task.id());
                } catch (RuntimeException e) {
                    log("restart of " + connector + " task " + task.id() + " refused: " + e.getMessage());
                }
            }
        }
    }

    private void log(String line) {
        out.println(Elapsed.since(begin) + " " + line);
    }
}
