package dev.pglane.local.consistency;

import java.sql.SQLException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.function.LongPredicate;

/**
 * Runs an {@link InvariantChecker} on the target over and over on a background thread while a pipeline applies, and
 * keeps what the checks saw: how many ran, how far the target was at each, and every violation. The first error
 * that is not a violation (the target unreachable, a table missing) ends the monitoring and is rethrown by
 * {@link #stop()}.
 */
public final class InvariantMonitor implements AutoCloseable {
    private static final int KEPT_VIOLATIONS = 50;

    private final InvariantChecker checker;
    private final ScheduledExecutorService thread;
    private final List<Long> states = new ArrayList<>();
    private final List<String> violations = new ArrayList<>();
    private long violatingChecks;
    private long unavailable;
    private Exception failure;

    private InvariantMonitor(InvariantChecker checker) {
        this.checker = checker;
        this.thread = Executors.newSingleThreadScheduledExecutor(task -> {
            Thread named = new Thread(task, "pglane-consistency-monitor");
            named.setDaemon(true);
            return named;
        });
    }

    /** Starts checking at once, then again {@code pause} after each check ends. */
    public static InvariantMonitor start(InvariantChecker checker, Duration pause) {
        InvariantMonitor monitor = new InvariantMonitor(checker);
        monitor.thread.scheduleWithFixedDelay(monitor::checkOnce, 0, pause.toMillis(), TimeUnit.MILLISECONDS);
        return monitor;
    }

    private void checkOnce() {
        try {
            InvariantChecker.Check check = checker.checkOnce();
            synchronized (this) {
                states.add(check.loggedTransactions());
                if (!check.violations().isEmpty()) {
                    violatingChecks++;
                    for (Violation violation : check.violations()) {
                        if (violations.size() < KEPT_VIOLATIONS) {
                            violations.add("check " + states.size() + " (" + check.loggedTransactions()
                                    + " transactions logged): " + violation);
                        }
                    }
                }
            }
        } catch (SQLException e) {
            if (ServerConnections.isLost(e)) {
                synchronized (this) {
                    unavailable++; // the target is restarting: the next check connects again
                }
                return;
            }
            fail(e);
        } catch (RuntimeException e) {
            fail(e);
        }
    }

    private void fail(Exception e) {
        synchronized (this) {
            failure = e;
        }
        throw new IllegalStateException("the invariant monitor stops", e); // ends the schedule
    }

    /** Checks run so far. */
    public synchronized long checks() {
        return states.size();
    }

    /** Checks whose snapshot held a number of logged transactions that {@code state} accepts. */
    public synchronized long checksWhere(LongPredicate state) {
        return states.stream().filter(state::test).count();
    }

    /** Distinct numbers of logged transactions the checks saw: how many different target states they caught. */
    public synchronized long distinctStates() {
        return states.stream().distinct().count();
    }

    /** Checks that could not connect because the target was down. */
    public synchronized long unavailableChecks() {
        return unavailable;
    }

    /** Checks that found a violation. */
    public synchronized long violatingChecks() {
        return violatingChecks;
    }

    /** The first violations found, each with its check's number and how far the target was. */
    public synchronized List<String> violations() {
        return List.copyOf(violations);
    }

    /**
     * Stops checking (a check under way completes first).
     *
     * @throws SQLException the error that ended the monitoring early, if any
     */
    public void stop() throws SQLException {
        thread.shutdown();
        try {
            if (!thread.awaitTermination(60, TimeUnit.SECONDS)) {
                throw new IllegalStateException("the invariant monitor's check did not end within 60 s");
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while stopping the invariant monitor", e);
        }
        Exception failed;
        synchronized (this) {
            failed = failure;
        }
        if (failed instanceof SQLException sql) {
            throw sql;
        }
        if (failed != null) {
            throw new IllegalStateException("the invariant monitor failed", failed);
        }
    }

    @Override
    public void close() {
        thread.shutdownNow();
    }

    /** One line: checks, states seen, violations. */
    public synchronized String describe() {
        return checks() + " checks saw " + distinctStates() + " distinct target states; " + violatingChecks
                + " found violations" + (violations.isEmpty() ? "" : ":\n  " + String.join("\n  ", violations));
    }
}
