package dev.pglane.sink.schedule;

import dev.pglane.sink.assemble.SourceTransaction;
import java.sql.SQLException;
import org.apache.kafka.connect.errors.ConnectException;
import org.apache.kafka.connect.errors.RetriableException;

/** How the scheduler names and classifies a failed transaction. */
final class ApplyFailures {
    private ApplyFailures() {}

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
