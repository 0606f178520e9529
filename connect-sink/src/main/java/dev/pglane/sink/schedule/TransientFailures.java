package dev.pglane.sink.schedule;

import java.sql.SQLException;
import java.util.Set;

/**
 * Statement failures that come from running beside other sessions, not from the data: deadlock, serialization
 * failure, lock timeout, statement cancelled (the deadlock check cancels). Retrying may succeed, so the scheduler
 * retries them, and the apply sessions hand them to it rather than treating them as bad rows.
 */
public final class TransientFailures {
    private static final Set<String> STATES = Set.of("40P01", "40001", "55P03", "57014");

    private TransientFailures() {}

    public static boolean isTransient(SQLException e) {
        return STATES.contains(e.getSQLState());
    }
}
