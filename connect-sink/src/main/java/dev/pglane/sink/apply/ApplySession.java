package dev.pglane.sink.apply;

import static dev.pglane.sink.target.Identifiers.qualified;

import dev.pglane.connect.database.DatabaseEndpoint;
import dev.pglane.sink.admit.SequenceBoundary;
import dev.pglane.sink.assemble.ChangeRecord;
import dev.pglane.sink.assemble.SourceTransaction;
import dev.pglane.sink.progress.AppliedPosition;
import dev.pglane.sink.progress.ProgressLog;
import dev.pglane.sink.schedule.TransactionApplier;
import dev.pglane.sink.target.TableEvolution;
import dev.pglane.sink.target.TableMapping;
import dev.pglane.sink.target.TableName;
import dev.pglane.sink.target.TargetCatalog;
import dev.pglane.wire.envelope.TruncateInfo;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.stream.Collectors;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One apply worker's database session. It is set up like PostgreSQL's own subscriber
 * ({@code session_replication_role = replica}, so triggers and foreign-key checks do not fire again;
 * a configurable {@code synchronous_commit}) and applies a transaction's changes in their order,
 * grouping consecutive changes of the same shape into one statement or JDBC batch. The progress row
 * is written in the same database transaction, at commit; the sequence values it carries are set after the commit
 * ({@link SequenceAdvance}).
 */
public final class ApplySession implements TransactionApplier {
    private static final Logger log = LoggerFactory.getLogger(ApplySession.class);

    /**
     * After a transaction had to be applied again statement by statement, the next ones skip the pipeline: a
     * conflict rarely comes alone (an overlap with rows already in the target), and each would cost two tries.
     */
    private static final int SEPARATE_AFTER_REDO = 64;

    /** Most composite statements a session keeps prepared: each holds a server-side statement per part. */
    private static final int MAX_COMPOSITES = 32;

    private final Connection connection;
    private final int backendPid;
    private final ProgressLog progress;
    private final TableEvolution evolution;
    private final StatementCache statements;
    private final RowPlans plans;
    private final RowWriter writer;
    private final ConflictHandler conflicts;
    private final boolean pipelineEnabled;
    private final boolean truncateCascade;
    private final StatementPipeline pipeline;
    private final TableBatches batches = new TableBatches();
    private final ChunkCopy chunkCopy;
    private final ChunkPreparation chunks;
    private final SequenceAdvance sequences;
    /** Transactions still to apply statement by statement after a redo. */
    private int separateLeft;
    /** Transactions the pipeline could not apply, which went statement by statement instead. */
    private long redone;

    /** The pending batch: rows sharing {@link #rowPlan}, or tables truncated with {@link #truncateOptions}. */
    private final List<ChangeRecord> rows = new ArrayList<>();

    private RowPlan rowPlan;
    private final Set<TableName> truncated = new LinkedHashSet<>();
    private final List<ChangeRecord> truncateRecords = new ArrayList<>();
    private TruncateInfo truncateOptions;

    private ApplySession(
            Connection connection,
            int backendPid,
            ApplySettings settings,
            RowPlans plans,
            TableEvolution evolution,
            ProgressLog progress,
            ConflictListener conflicts,
            SequenceBoundary sequenceBoundary,
            SequenceListener sequenceListener) {
        this.connection = connection;
        this.backendPid = backendPid;
        this.progress = progress;
        this.evolution = evolution;
        this.plans = plans;
        this.statements = new StatementCache(connection, StatementCache.MAX_STATEMENTS);
        this.pipelineEnabled = settings.pipeline();
        this.truncateCascade = settings.truncateCascade();
        this.pipeline = new StatementPipeline(new StatementCache(connection, MAX_COMPOSITES));
        this.conflicts = new ConflictHandler(settings.conflictPolicy(), conflicts);
        this.writer = new RowWriter(statements, this.conflicts);
        this.chunkCopy = new ChunkCopy(connection, plans);
        this.chunks = new ChunkPreparation(connection, plans, settings.snapshotTruncate());
        this.sequences =
                new SequenceAdvance(connection, sequenceBoundary, settings.sequencesMargin(), sequenceListener);
    }

    /**
     * Connects as {@code <applicationName>-worker-<worker>} and sets the session up.
     *
     * @param sequenceBoundary the tables sequence values may reach
     * @param sequenceListener told of sequence values not applied as sent
     * @throws SQLException if the connection or its set-up fails (e.g. the role may not set
     *     session_replication_role)
     */
    public static ApplySession open(
            DatabaseEndpoint endpoint,
            int worker,
            ApplySettings settings,
            TableMapping mapping,
            TargetCatalog catalog,
            TableEvolution evolution,
            ProgressLog progress,
            ConflictListener conflicts,
            SequenceBoundary sequenceBoundary,
            SequenceListener sequenceListener)
            throws SQLException {
        Connection connection = endpoint.connect(settings.applicationName() + "-worker-" + worker);
        try {
            int pid;
            try (Statement st = connection.createStatement()) {
                st.execute("SET session_replication_role = replica");
                st.execute("SET synchronous_commit = "
                        + settings.synchronousCommit().name().toLowerCase(Locale.ROOT));
                // values/ writes money as plain digits with a '.', which only the C monetary locale reads.
                st.execute("SET lc_monetary = 'C'");
                // a lock held outside pglane must not stall the sink without a word: 55P03 is retried
                st.execute("SET lock_timeout = " + settings.lockTimeout().toMillis());
                st.execute(
                        "SET statement_timeout = " + settings.statementTimeout().toMillis());
                try (ResultSet rs = st.executeQuery("SELECT pg_catalog.pg_backend_pid()")) {
                    rs.next();
                    pid = rs.getInt(1);
                }
            }
            progress.setUpSession(connection, worker);
            connection.setAutoCommit(false);
            RowPlans plans = new RowPlans(
                    connection,
                    mapping,
                    catalog,
                    evolution,
                    new RowPlan.Settings(settings.conflictPolicy(), settings.batchMaxRows()));
            return new ApplySession(
                    connection,
                    pid,
                    settings,
                    plans,
                    evolution,
                    progress,
                    conflicts,
                    sequenceBoundary,
                    sequenceListener);
        } catch (SQLException | RuntimeException e) {
            connection.close();
            throw e;
        }
    }

    @Override
    public void apply(SourceTransaction tx, boolean ahead) throws SQLException {
        long started = System.nanoTime();
        conflicts.ahead(ahead);
        sequences.read(tx);
        boolean emptied = chunks.emptyTable(tx);
        if (chunkCopy.load(tx)) {
            logApplied(tx, started, "by COPY");
            return;
        }
        if (pipelineEnabled && separateLeft == 0) {
            if (applyPipelined(tx, emptied)) {
                logApplied(tx, started, "as one pipeline");
                return;
            }
            if (ahead) {
                throw ConflictHandler.aheadOfPredecessor(tx, "a row did not fit its pipelined statement");
            }
            log.debug("{} did not fit as one pipeline; applying it statement by statement", tx.describe());
            rollbackChanges();
            emptied = false;
            redone++;
            separateLeft = SEPARATE_AFTER_REDO;
        } else if (separateLeft > 0) {
            separateLeft--;
        }
        applySeparately(tx, emptied);
        logApplied(tx, started, "statement by statement");
    }

    /**
     * Queues the transaction's statements and sends them in as few round trips as the pipeline's bounds
     * allow.
     *
     * @return false if a row did not fit or a statement failed: the caller rolls back and applies it statement by
     *     statement
     */
    private boolean applyPipelined(SourceTransaction tx, boolean emptied) throws SQLException {
        discardPending();
        prepareChunk(tx, emptied);
        pipeline.discardMisses();
        try {
            for (ChangeRecord record : tx.changes()) {
                switch (record.event().op()) {
                    case MESSAGE -> {
                        // Logical decoding messages are for other consumers; they change no table.
                    }
                    case TRUNCATE -> {
                        // what came before goes first; the truncate itself is a statement of its own, as it is
                        // on the other path (a transaction that truncates is no conflict to redo)
                        if (!sendQueued(tx)) {
                            return false;
                        }
                        addTruncate(record, tx);
                    }
                    default -> {
                        truncateWaiting(tx);
                        if (!addPipelinedRow(record, tx)) {
                            return false;
                        }
                    }
                }
            }
            truncateWaiting(tx);
            if (!sendQueued(tx)) {
                return false;
            }
            pipeline.reportMisses(conflicts, tx);
            return true;
        } finally {
            batches.clear();
            pipeline.clear();
            discardPending();
        }
    }

    private void applySeparately(SourceTransaction tx, boolean emptied) throws SQLException {
        discardPending();
        prepareChunk(tx, emptied);
        for (ChangeRecord record : tx.changes()) {
            switch (record.event().op()) {
                case MESSAGE -> {
                    // Logical decoding messages are for other consumers; they change no table.
                }
                case TRUNCATE -> addTruncate(record, tx);
                default -> addRow(record, tx);
            }
        }
        flush(tx);
    }

    /** What a chunk does before its rows, unless its table was emptied in this target transaction already. */
    private void prepareChunk(SourceTransaction tx, boolean emptied) throws SQLException {
        if (!emptied) {
            chunks.prepare(tx);
        }
    }

    private static void logApplied(SourceTransaction tx, long started, String how) {
        log.trace(
                "Applied {} changes of {} {} in {} µs",
                tx.changes().count(),
                tx.describe(),
                how,
                (System.nanoTime() - started) / 1000);
    }

    /** Runs the truncate that consecutive truncate records gathered, if any, before the pipeline goes on. */
    private void truncateWaiting(SourceTransaction tx) throws SQLException {
        if (!truncated.isEmpty()) {
            flush(tx);
        }
    }

    /** Sends every open batch and what the pipeline holds; false if a row did not fit. */
    private boolean sendQueued(SourceTransaction tx) throws SQLException {
        return batches.closeAll((plan, rows) -> queue(plan, rows, tx))
                && pipeline.send(tx) == StatementPipeline.Outcome.APPLIED;
    }

    /** @return false if the pipeline reported that a row did not fit */
    private boolean addPipelinedRow(ChangeRecord record, SourceTransaction tx) throws SQLException {
        return batches.add(plans.planFor(record), record, (plan, batch) -> queue(plan, batch, tx));
    }

    /** Statement by statement: consecutive changes of one shape share a batch, in the source's order. */
    private void addRow(ChangeRecord record, SourceTransaction tx) throws SQLException {
        RowPlan plan = plans.planFor(record);
        if (!truncated.isEmpty()
                || (!rows.isEmpty() && (rows.size() >= rowPlan.maxRows || !plan.sameStatement(rowPlan)))) {
            flush(tx);
        }
        rowPlan = plan;
        rows.add(record);
    }

    private void addTruncate(ChangeRecord record, SourceTransaction tx) throws SQLException {
        TableName table = plans.targetOf(record.event());
        if (!evolution.truncatable(table, plans.target(table), record)) {
            return;
        }
        TruncateInfo options = record.event().truncate();
        if (!rows.isEmpty() || (!truncated.isEmpty() && !options.equals(truncateOptions))) {
            flush(tx);
        }
        truncateOptions = options;
        truncated.add(table);
        truncateRecords.add(record);
    }

    /**
     * Queues a batch in the pipeline, sending the pipeline once it is full.
     *
     * @return false if the pipeline reported that a row did not fit
     */
    private boolean queue(RowPlan plan, List<ChangeRecord> batch, SourceTransaction tx) throws SQLException {
        pipeline.add(plan, batch);
        return !pipeline.isFull() || pipeline.send(tx) == StatementPipeline.Outcome.APPLIED;
    }

    /** Sends the pending batch of the statement-by-statement path, or the pending truncate. */
    private void flush(SourceTransaction tx) throws SQLException {
        if (!rows.isEmpty()) {
            writer.write(rowPlan, rows, tx);
        } else if (!truncated.isEmpty()) {
            truncate(tx);
        }
        discardPending();
    }

    /**
     * One TRUNCATE of all tables of consecutive truncate records with the same options, as the source ran it, but
     * without CASCADE unless {@code truncate.cascade} asks for it: the tables a source CASCADE reached that are
     * published arrive in the same truncate, and cascading on the target would also empty tables that exist only
     * there. PostgreSQL's subscriber never cascades either, and fails the same way when a target table still
     * references a truncated one.
     */
    private void truncate(SourceTransaction tx) throws SQLException {
        boolean cascade = truncateOptions.cascade() && truncateCascade;
        String sql = "TRUNCATE " + truncated.stream().map(t -> qualified(t)).collect(Collectors.joining(", "))
                + (truncateOptions.restartIdentity() ? " RESTART IDENTITY" : "")
                + (cascade ? " CASCADE" : "");
        try (Statement st = connection.createStatement()) {
            st.execute(sql);
        } catch (SQLException e) {
            String hint = truncateOptions.cascade() && !cascade
                    ? "; the source truncated with CASCADE, which the sink replays only with truncate.cascade=true"
                    : "";
            throw new SQLException(
                    "Could not truncate " + truncated + " for record(s) "
                            + truncateRecords.stream()
                                    .map(ChangeRecord::position)
                                    .collect(Collectors.joining(", "))
                            + " of " + tx.describe() + ": " + e.getMessage() + hint,
                    e.getSQLState(),
                    e);
        }
    }

    private void discardPending() {
        rows.clear();
        rowPlan = null;
        truncated.clear();
        truncateRecords.clear();
        truncateOptions = null;
    }

    /** Commits, then sets the sequence values the transaction carried (which never fails it). */
    @Override
    public void commit(SourceTransaction tx) throws SQLException {
        try {
            progress.recordAndCommit(
                    connection, new AppliedPosition(tx.endLsn(), tx.end().commitTsUs(), tx.xid()));
        } catch (SQLException | RuntimeException e) {
            sequences.discard();
            throw e;
        } finally {
            plans.transactionEnded();
        }
        sequences.advance();
    }

    @Override
    public void rollback() throws SQLException {
        sequences.discard();
        rollbackChanges();
    }

    /** Rolls the transaction back, keeping the sequence values read: it is applied again at once. */
    private void rollbackChanges() throws SQLException {
        discardPending();
        try {
            connection.rollback();
        } finally {
            plans.transactionEnded();
        }
    }

    /** How many snapshot chunks went into the target by COPY. */
    long copied() {
        return chunkCopy.copied();
    }

    /** How many transactions the pipeline could not apply, so that they were applied statement by statement. */
    long redone() {
        return redone;
    }

    /** Statements the pipelined path sent, a set statement counting once. */
    long statementsPipelined() {
        return pipeline.statementsSent();
    }

    @Override
    public int backendPid() {
        return backendPid;
    }

    @Override
    public void close() {
        statements.close();
        pipeline.close();
        try {
            connection.close();
        } catch (SQLException e) {
            log.debug("Closing apply session of backend {} failed", backendPid, e);
        }
    }
}
