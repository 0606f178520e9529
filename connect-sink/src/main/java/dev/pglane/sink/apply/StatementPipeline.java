package dev.pglane.sink.apply;

import dev.pglane.connect.database.SqlStateClass;
import dev.pglane.sink.assemble.ChangeRecord;
import dev.pglane.sink.assemble.SourceTransaction;
import dev.pglane.sink.schedule.TransientFailures;
import dev.pglane.wire.envelope.RowImage;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Types;
import java.util.ArrayList;
import java.util.List;

/**
 * Sends the row statements of a transaction (or group) to the target as one multi-statement prepared
 * statement, which pgjdbc sends as one pipeline: every statement's Bind and Execute, then one Sync. A
 * pgbench transaction is four statements of four shapes, so the statement-by-statement path waits for
 * the target four times where this waits once; a group of 32 waits once instead of 128 times.
 *
 * <p>The pipeline only succeeds when every row fits: each UPDATE and DELETE changes exactly one row and
 * each INSERT inserts all of its rows (or, for snapshot rows, inserts or overwrites them). Changes of a table whose
 * snapshot is pending fit whatever they find, as on the other path: their set statements may change fewer rows than
 * they carry, an UPDATE's missing rows are then inserted by the statement that follows it ({@link
 * RowPlan#insertMissing}), an INSERT may overwrite; such misses are counted and reported once the whole transaction
 * went through ({@link #reportMisses}). Anything else (a conflict, a rejected value, a missing table) is
 * reported as {@link Outcome#REDO}: the caller rolls back and applies the transaction statement by
 * statement, which applies the conflict policy and names the record. Errors of running concurrently with
 * other sessions (deadlock, lock timeout, a cancel) and lost connections are thrown, as the scheduler
 * retries those.
 */
final class StatementPipeline implements AutoCloseable {
    /** What became of a pipeline. */
    enum Outcome {
        /** Every statement changed exactly the rows it should. */
        APPLIED,
        /** A row did not fit or a statement failed: roll back and apply statement by statement. */
        REDO
    }

    /** Bounds one round trip: statements and bound values, so the request and its replies stay small. */
    private static final int MAX_STATEMENTS = 256;

    private static final int MAX_VALUES = 50_000;

    private final StatementCache composites;
    private final List<Step> steps = new ArrayList<>();
    /** Pending-snapshot misses of the parts sent so far, reported only once the whole transaction fits. */
    private final List<Miss> misses = new ArrayList<>();

    private final List<String> texts = new ArrayList<>();
    private int values;
    private long statementsSent;

    StatementPipeline(StatementCache composites) {
        this.composites = composites;
    }

    /**
     * One batch of rows sharing a plan, and how many statements it sends.
     *
     * @param set whether its rows go in one {@link SetStatement}
     */
    private record Step(RowPlan plan, List<ChangeRecord> records, int statements, boolean set) {}

    /** {@code count} rows of a step that found the target otherwise than they expected. */
    private record Miss(RowPlan plan, int count) {}

    /** True if nothing is waiting to be sent. */
    boolean isEmpty() {
        return steps.isEmpty();
    }

    /** True if the waiting statements should be sent before more are added. */
    boolean isFull() {
        return texts.size() >= MAX_STATEMENTS || values >= MAX_VALUES;
    }

    /**
     * Queues rows that share {@code plan}: one multi-row INSERT; one UPDATE or DELETE for all of them when the plan
     * has a set form (the rows then have distinct keys, up to its {@link SetStatement#maxRows}); else one UPDATE or
     * DELETE per row.
     */
    void add(RowPlan plan, List<ChangeRecord> records) {
        if (plan.kind == RowPlan.Kind.INSERT) {
            texts.add(plan.insert(records.size()));
            steps.add(new Step(plan, List.copyOf(records), 1, false));
            values += plan.written.size() * records.size();
        } else if (plan.set != null && (records.size() > 1 || plan.pending)) {
            texts.add(plan.set.text(records.size()));
            values += plan.set.values(records.size());
            int statements = 1;
            if (plan.insertMissing != null) {
                texts.add(plan.insertMissing.text(records.size()));
                values += plan.insertMissing.values(records.size());
                statements = 2;
            }
            steps.add(new Step(plan, List.copyOf(records), statements, true));
        } else if (plan.statement != null) { // null: an update of unchanged TOAST columns only
            for (int i = 0; i < records.size(); i++) {
                texts.add(plan.statement);
            }
            steps.add(new Step(plan, List.copyOf(records), records.size(), false));
            values += (plan.written.size() + plan.match.size()) * records.size();
        }
    }

    /** Statements sent so far, set statements counting once: what the target planned and started. */
    long statementsSent() {
        return statementsSent;
    }

    /**
     * Sends the waiting statements in one round trip and checks what each changed; empties the
     * pipeline either way.
     *
     * @throws SQLException for a lost connection or a failure caused by another session
     */
    Outcome send(SourceTransaction tx) throws SQLException {
        if (steps.isEmpty()) {
            return Outcome.APPLIED;
        }
        try {
            PreparedStatement statement = composites.get(String.join(";\n", texts));
            bindAll(statement, tx);
            statementsSent += texts.size();
            return readResults(statement, statement.execute());
        } catch (SQLException e) {
            if (SqlStateClass.of(e) == SqlStateClass.CONNECTION || TransientFailures.isTransient(e)) {
                throw new SQLException("Could not apply " + tx.describe() + ": " + e.getMessage(), e.getSQLState(), e);
            }
            return Outcome.REDO;
        } finally {
            clear();
        }
    }

    /** Forgets the misses of the parts sent so far: a new transaction starts. */
    void discardMisses() {
        misses.clear();
    }

    /** Counts and logs the pending-snapshot misses of the transaction's parts, then forgets them. */
    void reportMisses(ConflictHandler conflicts, SourceTransaction tx) throws SQLException {
        for (Miss miss : misses) {
            conflicts.pendingMisses(miss.plan(), miss.count(), tx);
        }
        misses.clear();
    }

    /** Forgets the waiting statements. */
    void clear() {
        steps.clear();
        texts.clear();
        values = 0;
    }

    @Override
    public void close() {
        composites.close();
    }

    private void bindAll(PreparedStatement statement, SourceTransaction tx) throws SQLException {
        int index = 1;
        for (Step step : steps) {
            if (step.set) {
                for (int i = 0; i < step.statements; i++) { // an insert of the missing rows binds the same rows
                    index = bindSet(statement, index, step, tx);
                }
                continue;
            }
            for (ChangeRecord record : step.records) {
                index = RowValues.bindNaming(statement, index, step.plan.written, record, RowImage.AFTER, tx);
                if (step.plan.kind != RowPlan.Kind.INSERT) {
                    index = RowValues.bindNaming(
                            statement, index, step.plan.match, record, RowValues.matchImage(record.event()), tx);
                }
            }
        }
    }

    /** A set statement's rows, each its key then its written values, then the padding's nulls. */
    private static int bindSet(PreparedStatement statement, int first, Step step, SourceTransaction tx)
            throws SQLException {
        RowPlan plan = step.plan;
        int index = first;
        for (ChangeRecord record : step.records) {
            index = RowValues.bindNaming(
                    statement, index, plan.match, record, RowValues.matchImage(record.event()), tx);
            index = RowValues.bindNaming(statement, index, plan.written, record, RowImage.AFTER, tx);
        }
        int end = first + plan.set.values(step.records.size());
        while (index < end) {
            statement.setNull(index++, Types.OTHER);
        }
        return index;
    }

    /**
     * Walks the results in statement order: an update count each, or, for an INSERT that returns rows
     * (upsert), one {@code true} per row.
     *
     * @param rows whether the first result is rows, as {@code execute} said
     */
    private Outcome readResults(PreparedStatement statement, boolean rows) throws SQLException {
        boolean first = true;
        for (Step step : steps) {
            for (int i = 0; i < step.statements; i++) {
                boolean current = first ? rows : statement.getMoreResults();
                first = false;
                if (!fits(statement, step, i, current)) {
                    return Outcome.REDO;
                }
            }
        }
        return Outcome.APPLIED;
    }

    /** @param part which of the step's statements this is: 1 for the insert of an UPDATE's missing rows */
    private boolean fits(PreparedStatement statement, Step step, int part, boolean rows) throws SQLException {
        int expected = step.plan.kind == RowPlan.Kind.INSERT || step.set ? step.records.size() : 1;
        if (part == 1) {
            return true; // inserts what the UPDATE before it missed, as many as that was
        }
        return rows ? fitsRows(statement, step.plan, expected) : fitsCount(statement.getUpdateCount(), step, expected);
    }

    private boolean fitsCount(int count, Step step, int expected) {
        RowPlan plan = step.plan;
        if (plan.pending && step.set && count <= expected) {
            countMisses(plan, expected - count);
            return true;
        }
        // snapshot rows of a table whose every column is key leave an existing row as it is: the same row
        return plan.overwrites ? count <= expected : count == expected;
    }

    /** An upsert's rows: one {@code inserted} flag per row it inserted or overwrote. */
    private boolean fitsRows(PreparedStatement statement, RowPlan plan, int expected) throws SQLException {
        int inserted = 0;
        int returned = 0;
        try (ResultSet rs = statement.getResultSet()) {
            while (rs.next()) {
                returned++;
                if (rs.getBoolean(1)) {
                    inserted++;
                } else if (!plan.pending) {
                    return false; // an upsert overwrote a row: a conflict the policy reports
                }
            }
        }
        if (plan.pending && returned <= expected) {
            countMisses(plan, expected - inserted); // overwritten, or left as it was (every column is key)
            return true;
        }
        return inserted == expected;
    }

    private void countMisses(RowPlan plan, int count) {
        if (count > 0) {
            misses.add(new Miss(plan, count));
        }
    }
}
