package dev.pglane.sink.schedule;

import dev.pglane.sink.assemble.SourceTransaction;
import java.sql.SQLException;
import org.apache.kafka.connect.errors.ConnectException;
import org.apache.kafka.connect.errors.RetriableException;

/** How the scheduler names and classifies a failed transaction. */
final class ApplyFailures {
    /** What a user does about a transaction the target refused: it was rolled back whole, and the task resumes. */
    static final String WHAT_NOW = ". Nothing of it was committed: remove the cause on the target, then restart the"
            + " task, which resumes after the last transaction it applied";

    private ApplyFailures() {}

    /** The session was lost: the task retries with a new scheduler and the uncommitted transactions. */
    static RetriableException connectionLost(SourceTransaction tx, SQLException e) {
        return new RetriableException("Applying " + tx.describe() + " failed, connection lost: " + describe(e), e);
    }

    /** The target refused the transaction: what to do about it is said too. */
    static ConnectException failed(SourceTransaction tx, SQLException e) {
        return new ConnectException("Applying " + tx.describe() + " failed: " + describe(e) + WHAT_NOW, e);
    }

    /** The sink could not apply the transaction (a record it refuses, say): the failure names its cause. */
    static ConnectException failed(SourceTransaction tx, RuntimeException e) {
        return new ConnectException("Applying " + tx.describe() + " failed: " + describe(e), e);
    }

    static ConnectException failed(SourceTransaction tx, SQLException e, int retries) {
        return new ConnectException(
                "Applying " + tx.describe() + " failed after " + retries + " retries: " + describe(e) + WHAT_NOW, e);
    }

    private static String describe(Exception e) {
        return e instanceof SQLException sql && sql.getSQLState() != null
                ? e.getMessage() + " (SQLState " + sql.getSQLState() + ")"
                : e.getMessage();
    }
}
