package dev.pglane.sink.apply;

import dev.pglane.sink.PgSinkConfig;
import dev.pglane.sink.assemble.ChangeRecord;
import dev.pglane.sink.assemble.SourceTransaction;
import java.sql.BatchUpdateException;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.List;

/**
 * Names what failed when the target rejects a statement: table, record, key and transaction. The
 * SQLState is kept, so that the scheduler still tells a lost connection or a unique violation
 * (retried serially) from a real apply error.
 */
final class ApplyFailures {
    /** SQLState {@code unique_violation}. */
    private static final String UNIQUE_VIOLATION = "23505";

    private ApplyFailures() {}

    /** {@code e} from a statement that applied {@code records} (in order) with {@code plan}. */
    static SQLException of(SQLException e, RowPlan plan, List<ChangeRecord> records, SourceTransaction tx) {
        SQLException cause = serverError(e);
        ChangeRecord culprit = culprit(e, cause, plan, records);
        String which = culprit != null
                ? "record " + culprit.position() + " with key " + plan.describeKey(culprit)
                : records.size() == 1
                        ? "record " + records.get(0).position() + " with key " + plan.describeKey(records.get(0))
                        : "records " + records.get(0).position() + " to "
                                + records.get(records.size() - 1).position();
        String message = "Could not " + plan.kind.name().toLowerCase() + " " + plan.table + " for " + which + " of "
                + tx.describe() + ": " + cause.getMessage() + insertExists(cause, plan, culprit);
        return new SQLException(message, cause.getSQLState(), e);
    }

    /**
     * What an insert whose key the target already holds means, said in the terms of the options: only under
     * {@code conflict.policy=error} does such an insert reach the server without an ON CONFLICT clause. Empty for a
     * unique violation of another index than the key (the server's detail then names other columns).
     */
    private static String insertExists(SQLException cause, RowPlan plan, ChangeRecord culprit) {
        boolean keyTaken = plan.kind == RowPlan.Kind.INSERT
                && UNIQUE_VIOLATION.equals(cause.getSQLState())
                && culprit != null
                && String.valueOf(cause.getMessage()).contains(plan.describeKey(culprit));
        return keyTaken
                ? " (conflict " + ConflictListener.INSERT_EXISTS + " under " + PgSinkConfig.CONFLICT_POLICY
                        + "=error: the target already holds the row's key; skip keeps the target's row, upsert"
                        + " overwrites it)"
                : "";
    }

    /** The server's error: a JDBC batch wraps it as the next exception. */
    private static SQLException serverError(SQLException e) {
        return e instanceof BatchUpdateException && e.getNextException() != null ? e.getNextException() : e;
    }

    /**
     * The record that failed: the failed entry of a JDBC batch, or the one whose key PostgreSQL's
     * detail names (e.g. {@code Key (id)=(1) already exists}) in a multi-row statement.
     */
    private static ChangeRecord culprit(SQLException e, SQLException cause, RowPlan plan, List<ChangeRecord> records) {
        if (e instanceof BatchUpdateException batch) {
            int[] counts = batch.getUpdateCounts();
            for (int i = 0; i < counts.length && i < records.size(); i++) {
                if (counts[i] == Statement.EXECUTE_FAILED) {
                    return records.get(i);
                }
            }
        }
        String text = String.valueOf(cause.getMessage());
        for (ChangeRecord record : records) {
            if (text.contains(plan.describeKey(record))) {
                return record;
            }
        }
        return null;
    }
}
