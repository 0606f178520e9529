package dev.pglane.sink.apply;

import dev.pglane.sink.assemble.ChangeRecord;
import dev.pglane.sink.target.TableName;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The batches of the pipelined path: a target transaction's row changes gathered per target table, so that the
 * changes of a table that other tables' changes interleave (pgbench: accounts, tellers, branches, history, and
 * again) still share a statement. A table has one open batch; a change of another shape on it, or a full batch,
 * sends the open one first, so the changes of one table keep their order. Only changes of different tables change
 * places, which gives the same rows at commit: foreign keys are not checked on apply sessions, and nothing reads
 * the target transaction before it commits (an {@code ENABLE ALWAYS} row trigger may see the tables' changes in
 * another order than the source made them).
 *
 * <p>A batch for a set statement holds distinct keys, counting the keys its updates move rows to: one statement does
 * not see the row versions it wrote itself, so a change of a row at the key an earlier change of the batch moved it
 * to would match nothing (and while the table's snapshot is pending, that miss passes as a row not loaded yet). A
 * later update of a key the batch holds replaces the earlier one when neither moves the row to another key, since it
 * writes the same columns, all of them from its own new row; any other repeat, and a move onto a key the batch holds,
 * sends the batch first.
 */
final class TableBatches {

    /** Where a closed batch goes. */
    interface Destination {
        /** @return false if the rows sent so far did not fit, and the transaction must be redone */
        boolean send(RowPlan plan, List<ChangeRecord> rows) throws SQLException;
    }

    private static final class Batch {
        final RowPlan plan;
        final List<ChangeRecord> rows = new ArrayList<>();
        /** For a set statement: each key's place in {@link #rows}. */
        final Map<List<String>, Integer> keys = new HashMap<>();

        Batch(RowPlan plan) {
            this.plan = plan;
        }

        int limit() {
            return plan.set != null ? plan.set.maxRows : plan.maxRows;
        }
    }

    private final Map<TableName, Batch> open = new LinkedHashMap<>();

    /** @return false if a batch sent on the way did not fit */
    boolean add(RowPlan plan, ChangeRecord record, Destination destination) throws SQLException {
        Batch batch = open.get(plan.table);
        if (batch != null && (!batch.plan.sameStatement(plan) || batch.rows.size() >= batch.limit())) {
            if (!close(plan.table, destination)) {
                return false;
            }
            batch = null;
        }
        if (batch == null) {
            batch = new Batch(plan);
            open.put(plan.table, batch);
        }
        if (batch.plan.set != null) {
            return addToSet(batch, plan, record, destination);
        }
        batch.rows.add(record);
        return true;
    }

    /** Adds {@code record} to the set statement's {@code batch}, or to a new one if its key is taken. */
    private boolean addToSet(Batch batch, RowPlan plan, ChangeRecord record, Destination destination)
            throws SQLException {
        List<String> key = plan.matchKey(record);
        List<String> movedTo = movedTo(plan, record, key);
        Integer earlier = batch.keys.get(key);
        if (earlier != null
                && movedTo == null
                && plan.kind == RowPlan.Kind.UPDATE
                && plan.keepsKey(batch.rows.get(earlier))) {
            batch.rows.set(earlier, record);
            return true;
        }
        Batch into = batch;
        if (earlier != null || (movedTo != null && batch.keys.containsKey(movedTo))) {
            if (!close(plan.table, destination)) {
                return false;
            }
            into = new Batch(plan);
            open.put(plan.table, into);
        }
        into.keys.put(key, into.rows.size());
        if (movedTo != null) {
            into.keys.put(movedTo, into.rows.size());
        }
        into.rows.add(record);
        return true;
    }

    /** The key {@code record} moves its row to from {@code key}; {@code null} for any change that moves none. */
    private static List<String> movedTo(RowPlan plan, ChangeRecord record, List<String> key) {
        if (plan.kind != RowPlan.Kind.UPDATE || record.event().before() == null) {
            return null;
        }
        List<String> after = plan.newKey(record);
        return after.equals(key) ? null : after;
    }

    /** Sends every open batch, in the order they were opened. */
    boolean closeAll(Destination destination) throws SQLException {
        Iterator<Batch> batches = open.values().iterator();
        while (batches.hasNext()) {
            Batch batch = batches.next();
            batches.remove();
            if (!destination.send(batch.plan, batch.rows)) {
                open.clear();
                return false;
            }
        }
        return true;
    }

    /** Forgets the open batches. */
    void clear() {
        open.clear();
    }

    private boolean close(TableName table, Destination destination) throws SQLException {
        Batch batch = open.remove(table);
        return destination.send(batch.plan, batch.rows);
    }
}
