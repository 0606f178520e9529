package dev.pglane.local.consistency;

import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * A seeded, reproducible application on the source: concurrent sessions committing small transactions over the
 * {@link ConsistencySchema} tables — transfers, atomic groups, TOAST documents, every type family, changing
 * composite keys, a shared unique code pool, keyless duplicates, TRUNCATE, savepoints and whole transactions rolled
 * back, now and then a transaction of several MB — while every committed state keeps the invariants that
 * {@link InvariantChecker} checks.
 *
 * <p>Session {@code i} draws every choice from a random source seeded with {@code seed + i} (see {@link
 * TransactionPlan}); how the sessions interleave is up to the server, so a seed reproduces the choices, not the
 * schedule.
 */
public final class ConsistencyWorkload {
    private final String jdbcUrl;
    private final ConsistencySchema schema;
    private final long seed;

    /**
     * What a run did.
     *
     * @param committed transactions committed
     * @param rolledBack transactions rolled back, on purpose or after colliding with another session
     * @param collisions of those, the ones the server rolled back (deadlock, serialization failure)
     * @param rowChanges rows the committed transactions' statements changed
     * @param largeTransactions committed transactions of several MB
     */
    public record Summary(
            long seed,
            long committed,
            long rolledBack,
            long collisions,
            long rowChanges,
            long largeTransactions,
            Duration elapsed) {
        @Override
        public String toString() {
            return "seed " + seed + ": " + committed + " transactions committed (" + largeTransactions + " large), "
                    + rolledBack + " rolled back (" + collisions + " by the server), " + rowChanges + " row changes in "
                    + elapsed.toMillis() + " ms";
        }
    }

    /**
     * @param sourceJdbcUrl the source, credentials in the URL
     * @param schema the schema of the tables, created by {@link #createTables()}
     * @param seed decides every choice of every session
     */
    public ConsistencyWorkload(String sourceJdbcUrl, String schema, long seed) {
        this.jdbcUrl = sourceJdbcUrl;
        this.schema = new ConsistencySchema(schema);
        this.seed = seed;
    }

    public long seed() {
        return seed;
    }

    /** The statements that create the schema, its tables and their first rows; run them on a target too. */
    public List<String> ddl() {
        return schema.ddl();
    }

    /** Runs {@link #ddl()} on the source. */
    public void createTables() throws SQLException {
        try (Connection connection = DriverManager.getConnection(jdbcUrl);
                Statement statement = connection.createStatement()) {
            for (String sql : ddl()) {
                statement.execute(sql);
            }
        }
    }

    /** {@code clients} sessions, each ending {@code transactionsPerClient} transactions; returns when all have. */
    public Summary runTransactions(int clients, int transactionsPerClient) throws SQLException {
        Running running = launch(clients, transactionsPerClient);
        running.awaitSessions();
        return running.summary();
    }

    /** {@code clients} sessions committing transactions in the background until {@link Running#stop()}. */
    public Running start(int clients) {
        return launch(clients, Integer.MAX_VALUE);
    }

    private Running launch(int clients, int transactionsPerClient) {
        ConsistencyTally tally = new ConsistencyTally(seed);
        AtomicBoolean stopped = new AtomicBoolean();
        AtomicInteger threads = new AtomicInteger();
        ExecutorService pool = Executors.newFixedThreadPool(
                clients, task -> new Thread(task, "consistency-session-" + threads.getAndIncrement()));
        List<Future<?>> sessions = new ArrayList<>();
        for (int i = 0; i < clients; i++) {
            ConsistencySession session = new ConsistencySession(schema, i, seed, tally);
            sessions.add(pool.submit(() -> {
                session.run(jdbcUrl, transactionsPerClient, () -> !stopped.get());
                return null;
            }));
        }
        pool.shutdown();
        return new Running(sessions, stopped, tally);
    }

    /** Sessions running in the background. */
    public static final class Running {
        private final List<Future<?>> sessions;
        private final AtomicBoolean stopped;
        private final ConsistencyTally tally;

        private Running(List<Future<?>> sessions, AtomicBoolean stopped, ConsistencyTally tally) {
            this.sessions = sessions;
            this.stopped = stopped;
            this.tally = tally;
        }

        /** What the sessions have done so far. */
        public Summary summary() {
            return tally.summary();
        }

        /**
         * Throws the error that ended a session, if one has: a caller waiting for the sessions to get somewhere
         * learns at once why they never will.
         */
        public void throwIfFailed() throws SQLException {
            for (Future<?> session : sessions) {
                if (session.isDone()) {
                    await(session);
                }
            }
        }

        /**
         * Lets each session finish its transaction and stop; returns what they did.
         *
         * @throws SQLException the first error that ended a session other than a collision
         */
        public Summary stop() throws SQLException {
            stopped.set(true);
            awaitSessions();
            return tally.summary();
        }

        private void awaitSessions() throws SQLException {
            for (Future<?> session : sessions) {
                await(session);
            }
        }

        /** Waits for the session; when it failed, stops the others and throws its error. */
        private void await(Future<?> session) throws SQLException {
            try {
                session.get();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new IllegalStateException("interrupted while the consistency workload ran", e);
            } catch (ExecutionException e) {
                stopped.set(true);
                if (e.getCause() instanceof SQLException sql) {
                    throw sql;
                }
                throw new IllegalStateException("a consistency workload session failed", e.getCause());
            }
        }
    }
}
