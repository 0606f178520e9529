package dev.pglane.it.consistency;

import dev.pglane.it.consistency.TransactionPlan.Step;
import java.sql.Connection;
import java.sql.DriverManager;
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
 * counted as rolled back, and the session goes on. Any other error ends the session.
 */
final class ConsistencySession {
    /** SQLSTATEs of transactions that collided with another session's and are simply given up. */
    private static final Set<String> COLLISIONS = Set.of("40P01", "40001");

    private final ConsistencySchema schema;
    private final int session;
    private final Random random;
    private final ConsistencyTally tally;

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
        try (Connection connection = DriverManager.getConnection(jdbcUrl)) {
            connection.setAutoCommit(false);
            SessionKeys keys = new SessionKeys();
            ConsistencySteps steps = new ConsistencySteps(connection, schema, random, session, keys);
            steps.seedServerRandom();
            connection.commit();
            for (int i = 0; i < transactions && more.getAsBoolean(); i++) {
                TransactionPlan plan = TransactionPlan.draw(random);
                SessionKeys.Snapshot before = keys.snapshot();
                try {
                    if (transaction(connection, steps, plan, keys)) {
                        tally.committed(steps.rowChanges(), plan);
                    } else {
                        keys.restore(before);
                        tally.rolledBack();
                    }
                } catch (SQLException e) {
                    connection.rollback();
                    keys.restore(before);
                    if (!COLLISIONS.contains(e.getSQLState())) {
                        throw e;
                    }
                    tally.rolledBack();
                }
            }
        }
    }

    /** Runs the plan; returns whether it committed (false: the plan rolled it back). */
    private boolean transaction(Connection connection, ConsistencySteps steps, TransactionPlan plan, SessionKeys keys)
            throws SQLException {
        steps.stamp();
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
