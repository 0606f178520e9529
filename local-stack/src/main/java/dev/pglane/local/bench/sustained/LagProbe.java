package dev.pglane.local.bench.sustained;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentSkipListMap;
import java.util.concurrent.TimeUnit;

/**
 * Measures replication lag the same way for every system, by its own clock rather than any system's metric: a writer
 * commits a row into {@link #TABLE} on the source every {@link #WRITE_INTERVAL} and notes the instant before it sent
 * the commit; a poller asks the target every {@link #POLL_INTERVAL} for the rows it has not seen yet and notes the
 * instant its answer came back. A row's lag is the second instant minus the first: commit on the source to visible on
 * the target, over-stated by the two round trips and at most one poll interval (25 ms on average), never under-stated
 * (a row is visible only after its commit was asked for, and seen only before the answer returns, whichever thread the
 * machine runs when), so never zero. Both instants come from this JVM's monotonic clock, so the servers' clocks play
 * no part.
 *
 * <p>The table is replicated like any other: every system carries it beside the load. A system that applies each
 * table on its own (Debezium's JDBC sink reads each table's topic apart) can show the probe's table current while a
 * busier table lags behind, so the probe may also write a row into such a table in the same transaction ({@link
 * Companion}): a probe row is then visible once it shows in both. For a system that commits in the source's order the
 * two show at once.
 */
public final class LagProbe implements AutoCloseable {
    public static final String TABLE = "lag_probe";
    /** The probe's table, created alike on the source and on the target. */
    public static final String CREATE_TABLE = "CREATE TABLE " + TABLE
            + " (id bigint PRIMARY KEY, committed_at timestamptz NOT NULL DEFAULT clock_timestamp())";

    static final Duration WRITE_INTERVAL = Duration.ofMillis(100);
    static final Duration POLL_INTERVAL = Duration.ofMillis(50);
    private static final Duration AWAIT_STEP = Duration.ofMillis(20);

    /**
     * A second table the probe's transaction writes to, and how the target shows its rows.
     *
     * @param insert inserts the row of probe row {@code ?} (a bigint parameter)
     * @param seenSince the probe ids of the table's rows above {@code ?}, in order: what the target shows
     */
    public record Companion(String insert, String seenSince) {}

    private final Connection source;
    private final Connection target;
    private final Companion companion;
    /** id → System.nanoTime() of the first poll that saw it in the companion table */
    private final Map<Long, Long> companionVisible = new ConcurrentHashMap<>();
    /** id → System.nanoTime() when its commit returned */
    private final ConcurrentSkipListMap<Long, Long> committed = new ConcurrentSkipListMap<>();
    /** id → System.nanoTime() of the first poll that saw it */
    private final Map<Long, Long> visible = new ConcurrentHashMap<>();

    private final Thread writer;
    private final Thread poller;
    private volatile boolean stopped;
    private volatile boolean writing = true;
    private volatile Exception failure;

    private LagProbe(Connection source, Connection target, Companion companion) {
        this.source = source;
        this.target = target;
        this.companion = companion;
        this.writer = new Thread(this::write, "pglane-bench-probe-writer");
        this.poller = new Thread(this::poll, "pglane-bench-probe-poller");
        writer.setDaemon(true);
        poller.setDaemon(true);
    }

    /**
     * Starts writing on {@code source} and polling {@code target}, whose databases both hold an empty {@link #TABLE};
     * the probe closes both connections.
     */
    public static LagProbe start(Connection source, Connection target) throws SQLException {
        return start(source, target, null);
    }

    /** As {@link #start(Connection, Connection)}, each probe row also written to {@code companion}'s table. */
    public static LagProbe start(Connection source, Connection target, Companion companion) throws SQLException {
        source.setAutoCommit(companion == null);
        target.setAutoCommit(true);
        LagProbe probe = new LagProbe(source, target, companion);
        probe.poller.start();
        probe.writer.start();
        return probe;
    }

    private void write() {
        long next = System.nanoTime();
        long id = 0;
        try (PreparedStatement insert = source.prepareStatement("INSERT INTO " + TABLE + " (id) VALUES (?)");
                PreparedStatement also = companion == null ? null : source.prepareStatement(companion.insert())) {
            while (writing && !stopped) {
                id++;
                insert.setLong(1, id);
                long committing = System.nanoTime(); // the INSERT commits itself unless a companion row follows
                insert.executeUpdate();
                if (also != null) {
                    also.setLong(1, id);
                    also.executeUpdate();
                    committing = System.nanoTime();
                    source.commit();
                }
                committed.put(id, committing);
                next += WRITE_INTERVAL.toNanos();
                // a late write (a busy source) is not made up for: the interval is a floor, never a burst
                next = Math.max(next, System.nanoTime());
                TimeUnit.NANOSECONDS.sleep(next - System.nanoTime());
            }
        } catch (SQLException e) {
            failure = e;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    private void poll() {
        long seen = 0;
        long companionSeen = 0;
        try (PreparedStatement query =
                        target.prepareStatement("SELECT id FROM " + TABLE + " WHERE id > ? ORDER BY id");
                PreparedStatement companionQuery =
                        companion == null ? null : target.prepareStatement(companion.seenSince())) {
            while (!stopped) {
                long asked = System.nanoTime();
                seen = seenSince(query, seen, visible);
                if (companionQuery != null) {
                    companionSeen = seenSince(companionQuery, companionSeen, companionVisible);
                }
                TimeUnit.NANOSECONDS.sleep(Math.max(0, asked + POLL_INTERVAL.toNanos() - System.nanoTime()));
            }
        } catch (SQLException e) {
            failure = e;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    /**
     * Notes the ids above {@code seen} that {@code query} finds as seen when its answer came back; returns the highest.
     */
    private static long seenSince(PreparedStatement query, long seen, Map<Long, Long> visible) throws SQLException {
        query.setLong(1, seen);
        List<Long> found = new ArrayList<>();
        try (ResultSet rs = query.executeQuery()) {
            while (rs.next()) {
                found.add(rs.getLong(1));
            }
        }
        long answered = System.nanoTime();
        for (long id : found) {
            visible.putIfAbsent(id, answered);
            seen = id;
        }
        return seen;
    }

    /** When probe row {@code id} showed in every table it was written to; null while it has not. */
    private Long seenAt(long id) {
        Long inProbe = visible.get(id);
        if (companion == null || inProbe == null) {
            return inProbe;
        }
        Long inCompanion = companionVisible.get(id);
        return inCompanion == null ? null : Math.max(inProbe, inCompanion);
    }

    /**
     * The probe rows committed in {@code [from, until)} (System.nanoTime() instants), their commit instants counted
     * from {@code from}; a row not seen yet gets the time it has waited until {@code judgedAt} as its lag.
     */
    public List<ProbeSample> samples(long from, long until, long judgedAt) {
        checkRunning();
        List<ProbeSample> samples = new ArrayList<>();
        for (Map.Entry<Long, Long> row : committed.entrySet()) {
            long commit = row.getValue();
            if (commit < from || commit >= until) {
                continue;
            }
            Long seenAt = seenAt(row.getKey());
            double at = (commit - from) / 1e9;
            samples.add(
                    seenAt == null
                            ? new ProbeSample(at, Math.max(0, judgedAt - commit) / 1e9, false)
                            : new ProbeSample(at, Math.max(0, seenAt - commit) / 1e9, true));
        }
        return samples;
    }

    /**
     * Waits until every probe row committed before {@code until} is visible on the target; returns false if some
     * still is not after {@code timeout}.
     */
    public boolean awaitVisible(long until, Duration timeout) throws InterruptedException {
        return awaitVisible(Long.MIN_VALUE, until, timeout);
    }

    /**
     * As {@link #awaitVisible(long, Duration)}, for the rows committed from {@code from} on: the poller counts a row
     * only when it shows after every row before it, so rows that a system brings out of order (a snapshot's chunk
     * bringing those committed before its slot existed, after the stream brought later ones) are left out this way.
     */
    public boolean awaitVisible(long from, long until, Duration timeout) throws InterruptedException {
        long deadline = System.nanoTime() + timeout.toNanos();
        while (!allVisible(from, until)) {
            checkRunning();
            if (System.nanoTime() > deadline) {
                return false;
            }
            Thread.sleep(AWAIT_STEP.toMillis());
        }
        return true;
    }

    private boolean allVisible(long from, long until) {
        return committed.entrySet().stream()
                .filter(row -> row.getValue() >= from && row.getValue() < until)
                .allMatch(row -> seenAt(row.getKey()) != null);
    }

    /** Stops the writer (the poller goes on): the rows written so far are the last whose lag is measured. */
    public void stopWriting() throws InterruptedException {
        writing = false;
        writer.join(Duration.ofSeconds(10).toMillis());
    }

    /** Throws what stopped the writer or the poller, if anything did. */
    public void checkRunning() {
        if (failure != null) {
            throw new IllegalStateException("the lag probe stopped: " + failure.getMessage(), failure);
        }
    }

    @Override
    public void close() throws SQLException {
        stopped = true;
        try {
            writer.join(Duration.ofSeconds(10).toMillis());
            poller.join(Duration.ofSeconds(10).toMillis());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt(); // the connections are closed all the same
        }
        try {
            source.close();
        } finally {
            target.close();
        }
    }
}
