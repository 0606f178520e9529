package dev.pglane.sink.apply;

import dev.pglane.sink.PgSinkConfig;
import dev.pglane.sink.assemble.ChangeRecord;
import dev.pglane.sink.assemble.SourceTransaction;
import java.sql.SQLException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Applies {@code conflict.policy} to one conflicting row: counts it, then logs it, fails the
 * transaction, or asks for the upsert. An insert of an existing key under {@code error} fails in the
 * statement itself (SQLState 23505) and is reported by {@link ApplyFailures}.
 *
 * <p>A change flagged {@code pending_snapshot} is never a conflict, whatever the policy: its table's snapshot has
 * not finished, so the target may not hold the row yet (a later chunk brings it) or hold it already (a chunk read
 * after the change). Its plan upserts; a miss is counted apart and logged at DEBUG only, since a snapshot of a busy
 * table meets many.
 */
final class ConflictHandler {
    /** SQLState {@code no_data_found}: an update or delete found no row under {@code error}. */
    static final String NO_DATA_FOUND = "P0002";

    /**
     * pglane's own SQLState (class {@code PL}): a row was found otherwise than expected by a transaction that runs
     * ahead of a predecessor it depends on; the scheduler applies it again after that one.
     */
    static final String AHEAD_OF_PREDECESSOR = "PL001";

    private static final Logger log = LoggerFactory.getLogger(ConflictHandler.class);

    private final ConflictPolicy policy;
    private final ConflictListener listener;

    /** The transaction being applied runs ahead of a predecessor (see {@link #ahead(boolean)}). */
    private boolean ahead;

    ConflictHandler(ConflictPolicy policy, ConflictListener listener) {
        this.policy = policy;
        this.listener = listener;
    }

    /**
     * Whether the next transaction runs ahead of a predecessor that has applied but not committed. A row it inserted
     * is invisible then, so a miss or a taken key proves nothing: every such finding fails the transaction, whatever
     * the policy and the snapshot, and it is applied again once the predecessor committed.
     */
    void ahead(boolean value) {
        ahead = value;
    }

    /** The failure of a transaction that ran ahead of a predecessor and found {@code what}. */
    static SQLException aheadOfPredecessor(SourceTransaction tx, String what) {
        return new SQLException(
                tx.describe() + " ran ahead of a transaction it depends on and found " + what
                        + "; it runs again once that one committed",
                AHEAD_OF_PREDECESSOR);
    }

    /** An insert under skip or upsert found its key taken; the row was left or overwritten. */
    void insertExists(RowPlan plan, String key, ChangeRecord record, SourceTransaction tx) throws SQLException {
        if (ahead) {
            throw aheadOfPredecessor(tx, "key " + key + " of " + plan.table + " taken");
        }
        if (record.event().pendingSnapshot()) {
            pendingMiss(ConflictListener.INSERT_EXISTS, plan, key, record, tx, "overwrote it");
            return;
        }
        listener.conflict(ConflictListener.INSERT_EXISTS, plan.table);
        log.warn(
                "Conflict {} on {}: key {} already exists; {} (record {}, {}, {}={})",
                ConflictListener.INSERT_EXISTS,
                plan.table,
                key,
                policy == ConflictPolicy.SKIP ? "kept the existing row" : "overwrote it",
                record.position(),
                tx.describe(),
                PgSinkConfig.CONFLICT_POLICY,
                policy.name().toLowerCase());
    }

    /**
     * An update or delete found no row.
     *
     * @return true if the caller should insert the update's new row instead (upsert)
     * @throws SQLException with SQLState {@value #NO_DATA_FOUND} under policy error
     */
    boolean missing(RowPlan plan, ChangeRecord record, SourceTransaction tx) throws SQLException {
        String kind =
                plan.kind == RowPlan.Kind.UPDATE ? ConflictListener.UPDATE_MISSING : ConflictListener.DELETE_MISSING;
        boolean insert = plan.upsertRow != null;
        if (ahead) {
            throw aheadOfPredecessor(tx, "no row with key " + plan.describeKey(record) + " in " + plan.table);
        }
        if (record.event().pendingSnapshot()) {
            String outcome = insert
                    ? "inserted the new row"
                    : plan.kind == RowPlan.Kind.UPDATE
                            ? "left the row to the snapshot chunk that brings it (the change lacks its unchanged TOAST"
                                    + " values)"
                            : "nothing to delete";
            pendingMiss(kind, plan, plan.describeKey(record), record, tx, outcome);
            return insert;
        }
        listener.conflict(kind, plan.table);
        String conflict = "Conflict " + kind + " on " + plan.table + ": no row with key " + plan.describeKey(record)
                + " (record " + record.position() + ", " + tx.describe() + ", " + PgSinkConfig.CONFLICT_POLICY + "="
                + policy.name().toLowerCase() + ")";
        if (policy == ConflictPolicy.ERROR) {
            throw new SQLException(
                    conflict + "; the target differs from the source. Set " + PgSinkConfig.CONFLICT_POLICY
                            + " to skip or upsert to go on",
                    NO_DATA_FOUND);
        }
        log.warn("{}; {}", conflict, insert ? "inserted the new row" : "skipped the change");
        return insert;
    }

    /**
     * {@code count} rows of one set statement or multi-row upsert of changes whose snapshot is pending found the
     * target otherwise than they expected (which rows, the statement does not say): counted, and logged at DEBUG.
     */
    void pendingMisses(RowPlan plan, int count, SourceTransaction tx) throws SQLException {
        if (ahead) {
            throw aheadOfPredecessor(tx, count + " rows of " + plan.table + " otherwise than expected");
        }
        String kind = plan.missKind();
        for (int i = 0; i < count; i++) {
            listener.pendingSnapshotMiss(kind, plan.table);
        }
        log.debug(
                "{} on {} for {} rows while its snapshot is pending, as expected ({})",
                kind,
                plan.table,
                count,
                tx.describe());
    }

    private void pendingMiss(
            String kind, RowPlan plan, String key, ChangeRecord record, SourceTransaction tx, String outcome) {
        listener.pendingSnapshotMiss(kind, plan.table);
        log.debug(
                "{} on {} for key {} while its snapshot is pending, as expected; {} (record {}, {})",
                kind,
                plan.table,
                key,
                outcome,
                record.position(),
                tx.describe());
    }
}
