package dev.pglane.sink.apply;

import dev.pglane.sink.assemble.ChangeRecord;
import dev.pglane.sink.assemble.SourceTransaction;
import dev.pglane.wire.envelope.RowImage;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.List;

/**
 * Sends one batch of row changes that share a {@link RowPlan}: inserts as one multi-row INSERT (a JDBC
 * batch of single-row inserts under skip, whose per-row counts tell which rows existed), updates and
 * deletes as a JDBC batch, which pgjdbc pipelines, checking each row's count for a missing row.
 */
final class RowWriter {
    private final StatementCache statements;
    private final ConflictHandler conflicts;

    RowWriter(StatementCache statements, ConflictHandler conflicts) {
        this.statements = statements;
        this.conflicts = conflicts;
    }

    void write(RowPlan plan, List<ChangeRecord> records, SourceTransaction tx) throws SQLException {
        switch (plan.kind) {
            case INSERT -> {
                if (plan.policy == ConflictPolicy.SKIP) {
                    insertEach(plan, records, tx);
                } else {
                    insertAll(plan, records, tx);
                }
            }
            case UPDATE, DELETE -> change(plan, records, tx);
            default -> throw new IllegalStateException("unknown plan kind " + plan.kind);
        }
    }

    private void insertAll(RowPlan plan, List<ChangeRecord> records, SourceTransaction tx) throws SQLException {
        PreparedStatement statement = statements.get(plan.insert(records.size()));
        int index = 1;
        for (ChangeRecord record : records) {
            index = RowValues.bindNaming(statement, index, plan.written, record, RowImage.AFTER, tx);
        }
        try {
            if (plan.returnsInserted) {
                countOverwritten(statement, plan, records, tx);
            } else {
                statement.executeUpdate();
            }
        } catch (SQLException e) {
            throw ApplyFailures.of(e, plan, records, tx);
        }
    }

    /**
     * Upsert returns one {@code inserted} flag per row in VALUES order when it updates on conflict; when
     * it does nothing on conflict (every column is key) skipped rows return nothing and are only counted.
     */
    private void countOverwritten(
            PreparedStatement statement, RowPlan plan, List<ChangeRecord> records, SourceTransaction tx)
            throws SQLException {
        int returned = 0;
        try (ResultSet rs = statement.executeQuery()) {
            while (rs.next()) {
                if (!rs.getBoolean(1) && returned < records.size()) {
                    ChangeRecord record = records.get(returned);
                    conflicts.insertExists(plan, plan.describeKey(record), record, tx);
                }
                returned++;
            }
        }
        for (int i = returned; i < records.size(); i++) {
            conflicts.insertExists(plan, "(identical row)", records.get(i), tx);
        }
    }

    private void insertEach(RowPlan plan, List<ChangeRecord> records, SourceTransaction tx) throws SQLException {
        PreparedStatement statement = statements.get(plan.insert(1));
        statement.clearBatch(); // in case an earlier batch failed while it was being bound
        for (ChangeRecord record : records) {
            RowValues.bindNaming(statement, 1, plan.written, record, RowImage.AFTER, tx);
            statement.addBatch();
        }
        int[] counts = executeBatch(statement, plan, records, tx);
        for (int i = 0; i < counts.length; i++) {
            if (counts[i] == 0) {
                conflicts.insertExists(plan, plan.describeKey(records.get(i)), records.get(i), tx);
            }
        }
    }

    private void change(RowPlan plan, List<ChangeRecord> records, SourceTransaction tx) throws SQLException {
        if (plan.statement == null) {
            return; // an update of unchanged TOAST columns only: nothing to write
        }
        PreparedStatement statement = statements.get(plan.statement);
        statement.clearBatch(); // in case an earlier batch failed while it was being bound
        for (ChangeRecord record : records) {
            int index = RowValues.bindNaming(statement, 1, plan.written, record, RowImage.AFTER, tx);
            RowValues.bindNaming(statement, index, plan.match, record, RowValues.matchImage(record.event()), tx);
            statement.addBatch();
        }
        int[] counts = executeBatch(statement, plan, records, tx);
        for (int i = 0; i < counts.length; i++) {
            if (counts[i] == 0 && conflicts.missing(plan, records.get(i), tx)) {
                upsert(plan, records.get(i), tx);
            }
        }
    }

    /** The new row of an update that found no row, under upsert. */
    private void upsert(RowPlan plan, ChangeRecord record, SourceTransaction tx) throws SQLException {
        PreparedStatement statement = statements.get(plan.upsertRow);
        RowValues.bindNaming(statement, 1, plan.written, record, RowImage.AFTER, tx);
        try {
            statement.execute();
        } catch (SQLException e) {
            throw ApplyFailures.of(e, plan, List.of(record), tx);
        }
    }

    private static int[] executeBatch(
            PreparedStatement statement, RowPlan plan, List<ChangeRecord> records, SourceTransaction tx)
            throws SQLException {
        try {
            return statement.executeBatch();
        } catch (SQLException e) {
            statement.clearBatch();
            throw ApplyFailures.of(e, plan, records, tx);
        }
    }
}
