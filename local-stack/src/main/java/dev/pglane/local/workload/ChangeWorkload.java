package dev.pglane.local.workload;

import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.ReentrantReadWriteLock;
import java.util.function.LongSupplier;

/**
 * An application writing to the {@link WorkloadSchema} tables from several sessions at once, each committing one
 * small multi-table transaction after the other, until a count or a time runs out. Plus, on request, one
 * transaction of a given size.
 *
 * <p>Sessions collide on purpose (hot counters, TRUNCATE), so the source server now and then rolls one back
 * (deadlock, serialization failure, or a child whose parent a TRUNCATE removed): those are counted and the client
 * goes on. Any other error stops the run.
 */
public final class ChangeWorkload {
    /** SQLSTATEs of transactions that collided with another session's and are simply given up. */
    private static final Set<String> COLLISIONS = Set.of("40P01", "40001", "23503");

    private final String jdbcUrl;
    private final WorkloadSchema schema;
    /** Sessions hold the read side while they run a transaction; {@link #pause} takes the write side. */
    private final ReentrantReadWriteLock inFlight = new ReentrantReadWriteLock();

    /** What a run did. */
    public record Result(long committed, long rolledBack, Duration elapsed) {
        public double transactionsPerSecond() {
            return committed / Math.max(elapsed.toNanos() / 1e9, 1e-9);
        }
    }

    /**
     * @param jdbcUrl the source, credentials in the URL
     * @param schema where the tables are (see {@link #createTables()})
     */
    public ChangeWorkload(String jdbcUrl, WorkloadSchema schema) {
        this.jdbcUrl = jdbcUrl;
        this.schema = schema;
    }

    /** Creates the schema and its empty tables. */
    public void createTables() throws SQLException {
        execute(schema.ddl().toArray(String[]::new));
    }

    /** {@code clients} sessions, each committing {@code transactionsPerClient} transactions. */
    public Result runTransactions(int clients, int transactionsPerClient) throws SQLException {
        return run(clients, () -> Long.MAX_VALUE, transactionsPerClient, 0);
    }

    /** {@code clients} sessions, each committing transactions until {@code duration} has passed. */
    public Result runFor(int clients, Duration duration) throws SQLException {
        return runFor(clients, duration, 0);
    }

    /**
     * {@code clients} sessions committing {@code rate} transactions a second together (0: as fast as they can) until
     * {@code duration} has passed.
     */
    public Result runFor(int clients, Duration duration, double rate) throws SQLException {
        long deadline = System.nanoTime() + duration.toNanos();
        return run(clients, () -> deadline, Integer.MAX_VALUE, rate);
    }

    /**
     * {@code clients} sessions, each committing transactions until {@link System#nanoTime()} reaches {@code
     * deadline}, read before each transaction: another thread may move it.
     */
    public Result runUntil(int clients, LongSupplier deadline) throws SQLException {
        return run(clients, deadline, Integer.MAX_VALUE, 0);
    }

    /**
     * Stops the running sessions between transactions: returns once none has one open, and until {@link #resume}
     * none starts another. Called and resumed by the same thread.
     */
    public void pause() {
        inFlight.writeLock().lock();
    }

    /** Lets the sessions {@link #pause} stopped go on. */
    public void resume() {
        inFlight.writeLock().unlock();
    }

    private Result run(int clients, LongSupplier deadline, int transactionsPerClient, double rate) throws SQLException {
        execute(schema.seed().toArray(String[]::new));
        long begin = System.nanoTime();
        AtomicLong committed = new AtomicLong();
        AtomicLong rolledBack = new AtomicLong();
        AtomicInteger threads = new AtomicInteger();
        ExecutorService pool = Executors.newFixedThreadPool(
                clients, task -> new Thread(task, "workload-client-" + threads.incrementAndGet()));
        try {
            List<Future<?>> sessions = new ArrayList<>();
            for (int client = 0; client < clients; client++) {
                int number = client;
                sessions.add(pool.submit(() -> {
                    session(number, deadline, transactionsPerClient, Pacer.share(rate, clients), committed, rolledBack);
                    return null;
                }));
            }
            for (Future<?> session : sessions) {
                awaitSession(session);
            }
        } finally {
            pool.shutdownNow();
        }
        return new Result(committed.get(), rolledBack.get(), Duration.ofNanos(System.nanoTime() - begin));
    }

    private void session(
            int client,
            LongSupplier deadline,
            int transactions,
            Pacer pacer,
            AtomicLong committed,
            AtomicLong rolledBack)
            throws SQLException, InterruptedException {
        try (Connection connection = DriverManager.getConnection(jdbcUrl)) {
            WorkloadClient session = new WorkloadClient(connection, schema, client, 31L * client + 7);
            for (int i = 0; i < transactions && System.nanoTime() < deadline.getAsLong(); i++) {
                pacer.awaitNext();
                if (System.nanoTime() >= deadline.getAsLong()) {
                    break;
                }
                inFlight.readLock().lock();
                try {
                    session.transaction();
                    committed.incrementAndGet();
                } catch (SQLException e) {
                    if (!COLLISIONS.contains(e.getSQLState())) {
                        throw e;
                    }
                    rolledBack.incrementAndGet();
                } finally {
                    inFlight.readLock().unlock();
                }
            }
        }
    }

    private static void awaitSession(Future<?> session) throws SQLException {
        try {
            session.get();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while the workload ran", e);
        } catch (ExecutionException e) {
            if (e.getCause() instanceof SQLException sql) {
                throw sql;
            }
            throw new IllegalStateException("a workload session failed", e.getCause());
        }
    }

    /**
     * Inserts rows of 10 kB into {@code blobs} in one transaction until it holds at least {@code bytes} of row
     * data; returns the rows.
     */
    public long largeTransaction(long bytes) throws SQLException {
        long rows = bytes / 10_240 + 1;
        execute("INSERT INTO " + schema.table("blobs") + " SELECT (SELECT coalesce(max(id), 0) FROM "
                + schema.table("blobs") + ") + g, repeat(md5(g::text), 320) FROM generate_series(1, " + rows + ") g");
        return rows;
    }

    private void execute(String... statements) throws SQLException {
        try (Connection connection = DriverManager.getConnection(jdbcUrl);
                Statement statement = connection.createStatement()) {
            for (String sql : statements) {
                statement.execute(sql);
            }
        }
    }
}
