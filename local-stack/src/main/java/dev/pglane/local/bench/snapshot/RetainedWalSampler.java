package dev.pglane.local.bench.snapshot;

import dev.pglane.local.stack.PostgresNode;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;

/**
 * The WAL a slot holds back on the source, {@code pg_wal_lsn_diff(pg_current_wal_lsn(), restart_lsn)}, read every
 * second on a thread of its own until {@link #close}; keeps the largest reading. A slot that does not exist yet (the
 * connector creates it when it starts) reads as nothing. Beside it, for the log, every reading and the WAL behind the
 * slot's confirmed position: the part of the retained WAL that waits for the connector, the rest waiting for the
 * server's next restart point (a running-transactions record, written every 15 s at most).
 */
final class RetainedWalSampler implements AutoCloseable {
    private static final long PERIOD_MS = 1000;
    private static final String QUERY = "SELECT pg_wal_lsn_diff(pg_current_wal_lsn(), restart_lsn)::bigint,"
            + " pg_wal_lsn_diff(pg_current_wal_lsn(), confirmed_flush_lsn)::bigint"
            + " FROM pg_replication_slots WHERE slot_name = ? AND restart_lsn IS NOT NULL";

    private final AtomicLong max = new AtomicLong(-1);
    private final StringBuffer readings = new StringBuffer();
    private final AtomicReference<Exception> failure = new AtomicReference<>();
    private final Thread thread;
    private volatile boolean stopped;

    private RetainedWalSampler(PostgresNode source, String slot) {
        this.thread = new Thread(() -> sample(source, slot), "bench-retained-wal");
        thread.setDaemon(true);
    }

    static RetainedWalSampler start(PostgresNode source, String slot) {
        RetainedWalSampler sampler = new RetainedWalSampler(source, slot);
        sampler.thread.start();
        return sampler;
    }

    private void sample(PostgresNode source, String slot) {
        try (Connection connection = source.open();
                PreparedStatement query = connection.prepareStatement(QUERY)) {
            query.setString(1, slot);
            while (!stopped) {
                try (ResultSet rs = query.executeQuery()) {
                    if (rs.next()) {
                        max.accumulateAndGet(rs.getLong(1), Math::max);
                        readings.append(readings.length() == 0 ? "" : " ")
                                .append(rs.getLong(1) >> 20)
                                .append('/')
                                .append(rs.getLong(2) >> 20);
                    }
                }
                Thread.sleep(PERIOD_MS);
            }
        } catch (SQLException e) {
            failure.set(e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    /**
     * Stops sampling and returns the largest reading in bytes.
     *
     * @throws IllegalStateException when the source could not be read, or the slot never appeared
     */
    long stop() throws InterruptedException {
        close();
        if (failure.get() != null) {
            throw new IllegalStateException("cannot read the slot's retained WAL", failure.get());
        }
        if (max.get() < 0) {
            throw new IllegalStateException("the slot never appeared in pg_replication_slots while sampled");
        }
        return max.get();
    }

    /** Every reading, for the log: MB retained / MB behind the confirmed position, one a second. */
    String readings() {
        return readings.toString();
    }

    @Override
    public void close() throws InterruptedException {
        // no interrupt: one in the middle of a query could end it with an error; the thread sees the flag within
        // a period
        stopped = true;
        thread.join();
    }
}
