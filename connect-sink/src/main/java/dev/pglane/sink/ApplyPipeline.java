package dev.pglane.sink;

import dev.pglane.connect.database.DatabaseEndpoint;
import dev.pglane.sink.admit.ApplyScope;
import dev.pglane.sink.admit.ConsumedTopics;
import dev.pglane.sink.admit.NeighbourSinks;
import dev.pglane.sink.admit.SequenceBoundary;
import dev.pglane.sink.admit.TableBoundary;
import dev.pglane.sink.apply.ApplySession;
import dev.pglane.sink.apply.ApplySettings;
import dev.pglane.sink.apply.BlockingMonitor;
import dev.pglane.sink.apply.SynchronousCommit;
import dev.pglane.sink.assemble.SourceTransaction;
import dev.pglane.sink.progress.AppliedPosition;
import dev.pglane.sink.progress.DurabilityBarrier;
import dev.pglane.sink.progress.OriginTaggedProgress;
import dev.pglane.sink.progress.ProgressLog;
import dev.pglane.sink.progress.ProgressStore;
import dev.pglane.sink.progress.ProgressTable;
import dev.pglane.sink.progress.ReplicationOrigins;
import dev.pglane.sink.progress.SourceIdentityCheck;
import dev.pglane.sink.schedule.ApplyScheduler;
import dev.pglane.sink.schedule.SchedulerSettings;
import dev.pglane.sink.schedule.TransactionApplier;
import dev.pglane.sink.schedule.WriteSetBuilder;
import dev.pglane.sink.target.ForeignTriggers;
import dev.pglane.sink.target.TableEvolution;
import dev.pglane.sink.target.TableMapping;
import dev.pglane.sink.target.TargetCatalog;
import dev.pglane.sink.target.TargetTypes;
import dev.pglane.sink.validate.SuperuserCheck;
import java.sql.Connection;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The target side of one task run: the control connection (progress set-up, durability barrier), the
 * apply workers' sessions and the scheduler driving them. Opened as a whole and closed as a whole, so
 * after a lost connection the task replaces it instead of repairing parts.
 */
final class ApplyPipeline implements AutoCloseable {
    private static final Logger log = LoggerFactory.getLogger(ApplyPipeline.class);
    /** Write-set history kept for dependency checks before falling back to a barrier. */
    private static final int HISTORY_MAX_KEYS = 1_000_000;

    private final Connection control;
    private final AppliedPosition applied;
    private final ProgressLog progress;
    private NeighbourSinks neighbours;
    private final boolean asyncCommit;
    private final BlockingMonitor monitor;
    private final ApplyScheduler scheduler;

    private ApplyPipeline(
            Connection control,
            AppliedPosition applied,
            ProgressLog progress,
            NeighbourSinks neighbours,
            boolean asyncCommit,
            BlockingMonitor monitor,
            ApplyScheduler scheduler) {
        this.control = control;
        this.applied = applied;
        this.progress = progress;
        this.neighbours = neighbours;
        this.asyncCommit = asyncCommit;
        this.monitor = monitor;
        this.scheduler = scheduler;
    }

    /**
     * Connects, prepares the progress store, sets up the workers' sessions, then claims the applied position (and
     * makes it durable, since the assembler will skip everything up to it): an earlier instance of the task commits
     * nothing after the claim, so the position read is final.
     */
    static ApplyPipeline open(PgSinkConfig config, String sinkName, PgSinkMetrics metrics, SourceIdentityCheck identity)
            throws SQLException {
        long started = System.nanoTime();
        DatabaseEndpoint endpoint = config.database();
        String appName = "pglane-" + sinkName;
        ProgressLog progress = progressLog(config, sinkName, identity);
        List<AutoCloseable> opened = new ArrayList<>();
        try {
            Connection control = endpoint.connect(appName + "-control");
            opened.add(control);
            SuperuserCheck.warnIfSuperuser(control, sinkName);
            progress.prepare(control);
            TableMapping mapping = new TableMapping(config.tableNameFormat());
            TargetCatalog catalog = new TargetCatalog(
                    endpoint, appName + "-catalog", new ForeignTriggers(TriggerSettings.policy(config)));
            TableEvolution evolution = new TableEvolution(
                    config.autoCreate(), config.autoEvolve(), new TargetTypes(endpoint, appName + "-catalog"));
            boolean snapshotTruncate = config.snapshotTargetPrepare() == SnapshotTargetPrepare.TRUNCATE;
            TableBoundary boundary = new TableBoundary(
                    config.tableIncludeList(),
                    mapping,
                    config.progressStore() == ProgressStore.TABLE ? config.progressTable() : null);
            SequenceBoundary sequenceBoundary =
                    new SequenceBoundary(boundary, config.sourceTopics(), config.consumedTopics());
            ApplySettings settings = new ApplySettings(
                    config.conflictPolicy(),
                    config.synchronousCommit(),
                    config.applyBatchMaxRows(),
                    appName,
                    config.applyPipeline(),
                    config.truncateCascade(),
                    config.applyLockTimeout(),
                    config.applyStatementTimeout(),
                    snapshotTruncate,
                    config.sequencesMargin());
            List<TransactionApplier> workers = new ArrayList<>();
            for (int i = 0; i < config.applyWorkers(); i++) {
                ApplySession session = ApplySession.open(
                        endpoint,
                        i,
                        settings,
                        mapping,
                        catalog,
                        evolution,
                        progress,
                        metrics,
                        sequenceBoundary,
                        metrics);
                opened.add(session);
                workers.add(session);
            }
            AppliedPosition applied = progress.claim(control);
            identity.stored(applied);
            NeighbourSinks neighbours = progress.neighbours(control);
            DurabilityBarrier.run(control);
            BlockingMonitor monitor = new BlockingMonitor(endpoint, appName + "-monitor");
            opened.add(monitor);
            WriteSetBuilder writeSets = new WriteSetBuilder(mapping, catalog::lookup, snapshotTruncate);
            ApplyScheduler scheduler =
                    new ApplyScheduler(workers, monitor, writeSets::of, schedulerSettings(config, appName), metrics);
            log.info(
                    "Apply pipeline of {} ready in {} ms: {} workers, applied position {}",
                    sinkName,
                    (System.nanoTime() - started) / 1_000_000,
                    workers.size(),
                    applied.endLsn());
            metrics.applied(applied);
            return new ApplyPipeline(
                    control,
                    applied,
                    progress,
                    neighbours,
                    config.synchronousCommit() == SynchronousCommit.OFF,
                    monitor,
                    scheduler);
        } catch (SQLException | RuntimeException e) {
            closeQuietly(opened);
            throw e;
        }
    }

    private static SchedulerSettings schedulerSettings(PgSinkConfig config, String appName) {
        return new SchedulerSettings(
                config.deadlockCheckInterval(),
                config.applyRetryMax(),
                HISTORY_MAX_KEYS,
                appName,
                config.applyOverlap());
    }

    private static ProgressLog progressLog(PgSinkConfig config, String sinkName, SourceIdentityCheck identity) {
        String server = config.sourceTopicPrefix();
        if (config.progressStore() == ProgressStore.REPLICATION_ORIGIN) {
            return new ReplicationOrigins(sinkName, server, config.applyWorkers());
        }
        ConsumedTopics group =
                TableGroupSettings.scope(config) == ApplyScope.CONSUMED_TOPICS ? config.consumedTopics() : null;
        ProgressTable table = new ProgressTable(config.progressTable(), sinkName, server, identity, group);
        return config.appliesUnderOrigin() ? new OriginTaggedProgress(table) : table;
    }

    /** The position the target had applied when the pipeline opened. */
    AppliedPosition applied() {
        return applied;
    }

    /** The other sinks the progress store records for this source, as read when the pipeline opened. */
    NeighbourSinks neighbours() {
        return neighbours;
    }

    /** The other sinks read again; the last read if the target does not answer now. Called on the task thread. */
    NeighbourSinks readNeighbours() {
        try {
            neighbours = progress.neighbours(control);
        } catch (SQLException e) {
            log.debug("Could not read the other sinks' table groups; keeping the last read", e);
        }
        return neighbours;
    }

    long submit(SourceTransaction tx) {
        return scheduler.submit(tx);
    }

    long committedSequence() {
        return scheduler.committedSequence();
    }

    int inFlight() {
        return scheduler.inFlight();
    }

    /** Rethrows a worker's failure: RetriableException for a lost connection, ConnectException otherwise. */
    void checkFailure() {
        scheduler.checkFailure();
    }

    /** Makes every commit so far durable; needed only when the workers commit asynchronously. */
    void makeDurable() throws SQLException {
        if (asyncCommit) {
            DurabilityBarrier.run(control);
        }
    }

    @Override
    public void close() {
        scheduler.close();
        closeQuietly(List.of(monitor, control));
    }

    private static void closeQuietly(List<AutoCloseable> resources) {
        for (AutoCloseable resource : resources) {
            try {
                resource.close();
            } catch (Exception e) {
                log.debug("Closing {} failed", resource, e);
            }
        }
    }
}
