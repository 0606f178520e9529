package dev.pglane.local.pipeline;

import dev.pglane.local.kafka.TopicReader;
import dev.pglane.local.stack.ConnectRestClient;
import dev.pglane.local.stack.ConnectorStatus;
import dev.pglane.wire.Lsn;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Duration;
import java.util.function.BooleanSupplier;

/**
 * Waits until a sink has applied every transaction that the source had committed when the wait began.
 *
 * <ol>
 *   <li>While the source's stored offset records a snapshot under way, wait: rows of chunks not read yet are in no
 *       WAL position, so no L would cover them.
 *   <li>L = the source's {@code pg_current_wal_insert_lsn()}: every transaction committed before the call ends at
 *       or before L. Not {@code pg_current_wal_lsn()}, the write position: with {@code synchronous_commit = off}
 *       (the test servers' setting) it lags behind commits that have already returned.
 *   <li>Wait until the slot's {@code confirmed_flush_lsn} ≥ L. The source confirms only END positions whose records
 *       Kafka acknowledged, or, with nothing in flight, the server's position (wire-format.md §6); so from then on
 *       every END ≤ L is on the marker topic.
 *   <li>Read the marker topic to its end: T = the END {@code end_lsn} of the last transaction with changes at or
 *       before L.
 *   <li>Wait until the sink's progress {@code end_lsn} ≥ T. The sink commits in END order, recording its progress
 *       in the same transaction, so then everything up to T is applied and visible.
 * </ol>
 *
 * <p>Waiting for progress ≥ L directly could hang: progress holds the end of the last applied transaction, and WAL
 * written after it (other sessions, checkpoints, the server's own records) moves L past every END. A fence
 * transaction would avoid reading Kafka, but it writes to the source, and a user's publication may not capture it.
 */
public final class CatchUp {
    private static final Duration POLL = Duration.ofMillis(200);

    /**
     * What the wait found.
     *
     * @param sourceLsn L, the source's WAL insert position when the wait began
     * @param committed the source's transactions up to L, as its END markers tell them
     * @param progress the sink's progress once it covered them
     * @param waited how long it all took
     */
    public record Result(Lsn sourceLsn, CommittedTransactions committed, Progress progress, Duration waited) {}

    private final Pipeline pipeline;
    private final Runnable failFast;
    private final BooleanSupplier snapshotUnderWay;

    /**
     * @param failFast run at every poll; throws to end the wait at once, e.g. when a connector has failed and
     *     waiting on could only time out
     */
    public CatchUp(Pipeline pipeline, Runnable failFast) {
        this(pipeline, failFast, () -> false);
    }

    /** @param snapshotUnderWay true while the source connector's stored offset records an unfinished snapshot */
    public CatchUp(Pipeline pipeline, Runnable failFast, BooleanSupplier snapshotUnderWay) {
        this.pipeline = pipeline;
        this.failFast = failFast;
        this.snapshotUnderWay = snapshotUnderWay;
    }

    /**
     * A wait that ends at once, with Connect's trace, when either connector or its task has failed.
     */
    public static CatchUp unlessFailed(Pipeline pipeline, ConnectRestClient rest, String sourceConnector) {
        return new CatchUp(
                pipeline,
                () -> {
                    for (String connector : new String[] {sourceConnector, pipeline.sinkName()}) {
                        ConnectorStatus status = rest.status(connector);
                        if (status.hasFailed()) {
                            throw new IllegalStateException(
                                    "waiting for the sink to catch up, but " + status.describe());
                        }
                    }
                },
                () -> rest.sourceOffsets(sourceConnector).stream().anyMatch(offset -> offset.has("snapshot")));
    }

    /**
     * Waits as the class comment says.
     *
     * @throws IllegalStateException naming the step and the positions when {@code timeout} passes first
     * @throws SQLException when a server cannot be read
     */
    public Result await(Duration timeout) throws SQLException {
        long begin = System.nanoTime();
        long deadline = begin + timeout.toNanos();
        while (snapshotUnderWay.getAsBoolean()) {
            if (System.nanoTime() > deadline) {
                throw new IllegalStateException("the source connector's snapshot is still under way after "
                        + timeout.toSeconds() + " s (its stored offset records it)");
            }
            pause();
        }
        Lsn sourceLsn;
        try (Connection source = DriverManager.getConnection(pipeline.sourceJdbcUrl())) {
            sourceLsn = currentWalLsn(source);
            awaitSlotConfirmed(source, sourceLsn, deadline, timeout);
        }
        CommittedTransactions committed = new CommittedTransactions(sourceLsn);
        try (TopicReader markers =
                TopicReader.markersOf(pipeline.bootstrapServers(), pipeline.topicPrefix(), pipeline.format())) {
            markers.readToEnd(committed::accept, remaining(deadline));
        }
        Progress progress = awaitProgress(committed.lastChangeEnd(), deadline, timeout);
        return new Result(sourceLsn, committed, progress, Duration.ofNanos(System.nanoTime() - begin));
    }

    private void awaitSlotConfirmed(Connection source, Lsn position, long deadline, Duration timeout)
            throws SQLException {
        Lsn confirmed = confirmedFlush(source);
        while (confirmed.compareTo(position) < 0) {
            if (System.nanoTime() > deadline) {
                throw new IllegalStateException("the source connector has not confirmed its slot " + pipeline.slot()
                        + " up to " + position + " within " + timeout.toSeconds() + " s (confirmed_flush_lsn "
                        + confirmed + "): it has not sent everything to Kafka");
            }
            pause();
            confirmed = confirmedFlush(source);
        }
    }

    private Progress awaitProgress(Lsn lastChangeEnd, long deadline, Duration timeout) throws SQLException {
        try (ProgressTable progressTable =
                ProgressTable.open(pipeline.targetJdbcUrl(), pipeline.progressTable(), pipeline.sinkName())) {
            Progress progress = progressTable.read();
            while (progress.endLsn().compareTo(lastChangeEnd) < 0) {
                if (System.nanoTime() > deadline) {
                    throw new IllegalStateException("the sink " + pipeline.sinkName() + " has not caught up within "
                            + timeout.toSeconds() + " s: its progress in " + pipeline.progressTable() + " is "
                            + progress + ", the source's last transaction ends at " + lastChangeEnd);
                }
                pause();
                progress = progressTable.read();
            }
            return progress;
        }
    }

    private static Lsn currentWalLsn(Connection source) throws SQLException {
        try (PreparedStatement query = source.prepareStatement("SELECT pg_current_wal_insert_lsn()::text");
                ResultSet rs = query.executeQuery()) {
            rs.next();
            return Lsn.parse(rs.getString(1));
        }
    }

    private Lsn confirmedFlush(Connection source) throws SQLException {
        try (PreparedStatement query = source.prepareStatement(
                "SELECT confirmed_flush_lsn::text FROM pg_replication_slots WHERE slot_name = ?")) {
            query.setString(1, pipeline.slot());
            try (ResultSet rs = query.executeQuery()) {
                if (!rs.next()) {
                    throw new IllegalStateException("the source has no replication slot " + pipeline.slot());
                }
                String confirmed = rs.getString(1);
                return confirmed == null ? Lsn.INVALID : Lsn.parse(confirmed);
            }
        }
    }

    private static Duration remaining(long deadline) {
        return Duration.ofNanos(Math.max(0, deadline - System.nanoTime()));
    }

    private void pause() {
        failFast.run();
        try {
            Thread.sleep(POLL.toMillis());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while waiting for the sink to catch up", e);
        }
    }
}
