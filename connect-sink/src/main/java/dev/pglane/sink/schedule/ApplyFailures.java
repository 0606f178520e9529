package dev.pglane.sink.schedule;

import dev.pglane.sink.assemble.SourceTransaction;
import java.sql.SQLException;
import java.util.Set;
import org.apache.kafka.connect.errors.ConnectException;
import org.apache.kafka.connect.errors.RetriableException;

/** How the scheduler names and classifies a failed transaction. */
final class ApplyFailures {
    /** Deadlock, serialization failure, lock timeout, statement cancelled: retrying may succeed. */
    private static final Set<String> TRANSIENT_STATES = Set.of("40P01", "40001", "55P03", "57014");

    private ApplyFailures() {}

    static boolean isTransient(SQLException e) {
        return TRANSIENT_STATES.contains(e.getSQLState());
    }

    /** The session was lost: the task retries with a new scheduler and the uncommitted transactions. */
    static RetriableException connectionLost(SourceTransaction tx, SQLException e) {
        return new RetriableException("Applying " + tx.describe() + " failed, connection lost: " + describe(e), e);
    }

    static ConnectException failed(SourceTransaction tx, Exception e) {
        return new ConnectException("Applying " + tx.describe() + " failed: " + describe(e), e);
    }

    static ConnectException failed(SourceTransaction tx, SQLException e, int retries) {
        return new ConnectException(
                "Applying " + tx.describe() + " failed after " + retries + " retries: " + describe(e), e);
    }

    private static String describe(Exception e) {
        return e instanceof SQLException sql && sql.getSQLState() != null
                ? e.getMessage() + " (SQLState " + sql.getSQLState() + ")"
                : e.getMessage();
    }
}
