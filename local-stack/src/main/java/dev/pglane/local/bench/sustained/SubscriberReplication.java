package dev.pglane.local.bench.sustained;

import dev.pglane.local.bench.Subscriptions;
import dev.pglane.local.stack.PostgresNode;
import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;

/**
 * PostgreSQL's own subscriber: {@code CREATE SUBSCRIPTION ... WITH (copy_data = false)} in the run's target database,
 * which creates its slot on the source at the source's idle state (the target database a copy of that state); other
 * options at their defaults. Dropping the subscription drops its slot.
 */
final class SubscriberReplication implements Replication {
    private static final String SUBSCRIPTION = "sustained";

    private final PostgresNode target;
    private final Connection connection;

    private SubscriberReplication(PostgresNode target, Connection connection) {
        this.target = target;
        this.connection = connection;
    }

    static SubscriberReplication start(PostgresNode source, PostgresNode target, String database) throws SQLException {
        Connection connection = target.open(database);
        try (Statement statement = connection.createStatement()) {
            statement.execute("CREATE SUBSCRIPTION " + SUBSCRIPTION + " CONNECTION '"
                    + Subscriptions.connectionString(source) + "' PUBLICATION " + SustainedDatabase.PUBLICATION
                    + " WITH (copy_data = false)");
        } catch (SQLException e) {
            connection.close();
            throw e;
        }
        return new SubscriberReplication(target, connection);
    }

    /** See {@link Subscriptions#checkNoApplyErrors}. */
    @Override
    public void checkHealthy() throws SQLException {
        Subscriptions.checkNoApplyErrors(connection, SUBSCRIPTION, target);
    }

    @Override
    public void close() throws SQLException {
        try (connection;
                Statement statement = connection.createStatement()) {
            statement.execute("DROP SUBSCRIPTION IF EXISTS " + SUBSCRIPTION);
        }
    }
}
