package dev.pglane.sink.schedule;

import java.sql.SQLException;

/**
 * The scheduler's view of the target's lock manager, used to break commit-order deadlocks: a worker
 * waiting in Java for its turn is invisible to PostgreSQL's deadlock detector (parallel-apply.md R6 b).
 * Called from the deadlock-check thread only.
 */
public interface BlockingProbe {

    /** The server processes that {@code pid} is waiting for ({@code pg_blocking_pids}). */
    int[] blockingPids(int pid) throws SQLException;

    /** Cancels the statement {@code pid} is running ({@code pg_cancel_backend}). */
    void cancel(int pid) throws SQLException;

    /**
     * What session {@code pid} is, for a log line: its application, role, state, how long its transaction has been
     * open, what it waits on and its query id, as far as the role may see them ({@code pg_stat_activity}); never its
     * SQL text, which may hold another application's literals.
     */
    String describe(int pid) throws SQLException;
}
