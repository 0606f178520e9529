package dev.pglane.local.bench;

import dev.pglane.wire.Lsn;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.Map;
import java.util.TreeMap;

/**
 * Times a subscriber catching up on a backlog: from the action that starts it until its applied position on the
 * target reaches the backlog's end, checking then that the backlog's last transaction is indeed visible there; with
 * the CPU each part used meanwhile.
 *
 * <p>The position is a commit end LSN that the subscriber keeps in the target (pglane's progress table, the
 * subscription's replication origin), read by one query. It is polled every {@link #POLL}: fine enough for runs of
 * seconds, light enough not to weigh on the target's CPU.
 */
final class CatchUpTimer {
    private static final Duration POLL = Duration.ofMillis(50);
    private static final Duration HEALTH_INTERVAL = Duration.ofSeconds(1);
    private static final Duration TIMEOUT = Duration.ofMinutes(30);
    static final String JVM_REST = "JVM: GC, JIT, ended threads";

    /** What starts the subscriber. */
    interface Start {
        void run() throws Exception;
    }

    /** A look at the subscriber while it catches up; throws when it has failed, so a failure is not a timeout. */
    interface HealthCheck {
        void check() throws Exception;
    }

    private final Connection target;
    private final String positionQuery;
    private final CpuMeter cpu;

    /**
     * @param target an autocommit connection to the target database
     * @param positionQuery one row, one column: the applied position as {@code pg_lsn} text, or NULL before the first
     *     commit; a query on a table that does not exist yet counts as NULL
     */
    CatchUpTimer(Connection target, String positionQuery, CpuMeter cpu) {
        this.target = target;
        this.positionQuery = positionQuery;
        this.cpu = cpu;
    }

    /**
     * Runs {@code start} and waits for the catch-up. The JVM's CPU counts for pglane only: PostgreSQL's subscriber
     * does not run in it.
     */
    CatchUpMeasurement time(
            CatchUpConfiguration configuration, int run, Backlog.Info backlog, Start start, HealthCheck health)
            throws Exception {
        CpuMeter.Reading before = cpu.read();
        ThreadCpu threads = ThreadCpu.snapshot();
        long begin = System.nanoTime();
        start.run();
        long firstCommit = await(backlog.fenceBound(), health);
        double seconds = (System.nanoTime() - begin) / 1e9;
        CpuMeter.Reading used = cpu.read().since(before);
        boolean jvm = !configuration.isNative();
        return new CatchUpMeasurement(
                configuration.system(),
                configuration.workers(),
                run,
                seconds,
                (firstCommit - begin) / 1e9,
                backlog.transactions(),
                backlog.changes(),
                used.sourcePg(),
                used.targetPg(),
                jvm ? used.jvm() : null,
                jvm ? breakdown(threads, used.jvm()) : Map.of());
    }

    /**
     * The JVM's CPU by thread group, plus what the thread counters miss: the JVM's own threads (garbage collection,
     * the JIT compilers) and threads that ended meanwhile.
     */
    private static Map<String, Double> breakdown(ThreadCpu before, double jvmSeconds) {
        Map<String, Double> groups = new TreeMap<>(ThreadCpu.snapshot().secondsSince(before));
        double threads =
                groups.values().stream().mapToDouble(Double::doubleValue).sum();
        groups.put(JVM_REST, Math.max(0, jvmSeconds - threads));
        return groups;
    }

    /** Polls until the position is at or past {@code goal}; returns when the first commit was seen (nanoTime). */
    private long await(Lsn goal, HealthCheck health) throws Exception {
        long deadline = System.nanoTime() + TIMEOUT.toNanos();
        long nextCheck = System.nanoTime() + HEALTH_INTERVAL.toNanos();
        long firstCommit = 0;
        while (true) {
            Lsn position = position();
            if (firstCommit == 0 && position.isValid()) {
                firstCommit = System.nanoTime();
            }
            if (position.compareTo(goal) >= 0) {
                if (!Backlog.fenceApplied(target)) {
                    throw new IllegalStateException("the subscriber's position " + position + " is at the backlog's"
                            + " end " + goal + " but the fence row is not on the target: the position query ("
                            + positionQuery + ") does not tell what is applied");
                }
                return firstCommit;
            }
            long now = System.nanoTime();
            if (now > deadline) {
                throw new IllegalStateException("the subscriber had applied up to " + position + " after " + TIMEOUT
                        + "; the backlog ends at " + goal);
            }
            if (now > nextCheck) {
                health.check();
                nextCheck = now + HEALTH_INTERVAL.toNanos();
            }
            Thread.sleep(POLL.toMillis());
        }
    }

    private Lsn position() throws SQLException {
        try (Statement statement = target.createStatement();
                ResultSet rs = statement.executeQuery(positionQuery)) {
            String text = rs.next() ? rs.getString(1) : null;
            return text == null ? Lsn.INVALID : Lsn.parse(text);
        } catch (SQLException e) {
            if ("42P01".equals(e.getSQLState())) { // undefined_table: the subscriber has not created it yet
                return Lsn.INVALID;
            }
            throw e;
        }
    }
}
