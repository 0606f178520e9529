package dev.pglane.local.consistency;

import dev.pglane.local.consistency.TransactionPlan.Step;
import java.sql.Connection;
import java.sql.SQLException;
import java.util.Random;
import java.util.Set;
import java.util.function.BooleanSupplier;

/**
 * One client session of the {@link ConsistencyWorkload}: draws a {@link TransactionPlan} from its seeded random
 * source, stamps the transaction with the session's next sequence number, runs the plan's steps (some inside a
 * savepoint it rolls back), takes a clock tick if planned, logs the stamp, and commits, or rolls back when the plan
 * says so.
 *
 * <p>Sessions collide on purpose (transfers between the same accounts, the clock, codes of {@code composite}, the
 * TRUNCATE of {@code scratch}): a transaction the server ends with a deadlock or serialization failure is given up,
 * counted as rolled back, and the session goes on. A lost connection (the soak restarts the server) is opened again
 * and the transaction it broke counted as what it became. Any other error ends the session.
 */
final class ConsistencySession {
    /** SQLSTATEs of transactions that collided with another session's and are simply given up. */
    private static final Set<String> COLLISIONS = Set.of("40P01", "40001");

    private static final long NOT_STAMPED = -1;

    private final ConsistencySchema schema;
    private final int session;
    private final Random random;
    private final ConsistencyTally tally;
    /** The sequence number of the transaction under way, {@link #NOT_STAMPED} before it has taken one. */
    private long inFlight = NOT_STAMPED;

    /**
     * @param session this session's number, its row in {@code session_seq}
     * @param seed the workload's seed; this session draws from {@code seed + session}
     */
    ConsistencySession(ConsistencySchema schema, int session, long seed, ConsistencyTally tally) {
        this.schema = schema;
        this.session = session;
        this.random = new Random(seed + session);
        this.tally = tally;
    }

    /** Runs transactions until {@code more} says stop or {@code transactions} have ended (committed or not). */
    void run(String jdbcUrl, int transactions, BooleanSupplier more) throws SQLException {
        SessionKeys keys = new SessionKeys();
        Connection connection = ServerConnections.open(jdbcUrl);
        try {
            ConsistencySteps steps = begin(connection, keys);
            for (int i = 0; i < transactions && more.getAsBoolean(); i++) {
                TransactionPlan plan = TransactionPlan.draw(random, TransactionPlan.isLarge(session, i));
                SessionKeys.Snapshot before = keys.snapshot();
                inFlight = NOT_STAMPED;
                try {
                    if (transaction(connection, steps, plan, keys)) {
                        tally.committed(steps.rowChanges(), plan);
                    } else {
                        keys.restore(before);
                        tally.rolledBack();
                    }
                } catch (SQLException e) {
                    if (ServerConnections.isLost(e)) {
                        ServerConnections.closeQuietly(connection);
                        connection = ServerConnections.reopen(jdbcUrl, e);
                        long rows = steps.rowChanges();
                        steps = begin(connection, keys);
                        settleInFlight(connection, plan, rows, keys, before);
                        continue;
                    }
                    connection.rollback();
                    keys.restore(before);
                    if (!COLLISIONS.contains(e.getSQLState())) {
                        throw e;
                    }
                    tally.collided();
                }
            }
        } finally {
            ServerConnections.closeQuietly(connection);
        }
    }

    private ConsistencySteps begin(Connection connection, SessionKeys keys) throws SQLException {
        connection.setAutoCommit(false);
        ConsistencySteps steps = new ConsistencySteps(connection, schema, random, session, keys);
        steps.seedServerRandom();
        connection.commit();
        return steps;
    }

    /**
     * The connection broke during a transaction (the server restarted, an administrator ended the session): it
     * committed if and only if the session's row in {@code session_seq} holds the number it took, since that row
     * changes only with the transaction. The keys and the tally follow what really happened.
     */
    private void settleInFlight(
            Connection connection, TransactionPlan plan, long rows, SessionKeys keys, SessionKeys.Snapshot before)
            throws SQLException {
        boolean committed = inFlight != NOT_STAMPED
                && !plan.rolledBack()
                && ServerConnections.sessionSeq(connection, schema.table("session_seq"), session) == inFlight;
        if (committed) {
            tally.committed(rows, plan);
        } else {
            keys.restore(before);
            tally.rolledBack();
        }
    }

    /** Runs the plan; returns whether it committed (false: the plan rolled it back). */
    private boolean transaction(Connection connection, ConsistencySteps steps, TransactionPlan plan, SessionKeys keys)
            throws SQLException {
        inFlight = steps.stamp();
        for (Step step : plan.steps()) {
            if (step.inRolledBackSavepoint()) {
                SessionKeys.Snapshot before = keys.snapshot();
                steps.exec("SAVEPOINT step");
                steps.run(step.operation());
                steps.exec("ROLLBACK TO SAVEPOINT step");
                keys.restore(before);
            } else {
                steps.run(step.operation());
            }
        }
        if (plan.clockTick()) {
            steps.tickClock();
        }
        steps.log(plan);
        if (plan.rolledBack()) {
            connection.rollback();
            return false;
        }
        connection.commit();
        return true;
    }
}
