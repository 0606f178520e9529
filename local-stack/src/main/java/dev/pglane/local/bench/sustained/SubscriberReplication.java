package dev.pglane.local.bench.sustained;

import dev.pglane.local.stack.PostgresNode;
import java.sql.Connection;
import java.sql.ResultSet;
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
            // CREATE SUBSCRIPTION takes no bind parameters; the connection string holds the stack's own settings
            statement.execute("CREATE SUBSCRIPTION " + SUBSCRIPTION + " CONNECTION 'host=" + source.host() + " port="
                    + source.port() + " dbname=" + source.database() + " user=" + source.user() + " password="
                    + source.password() + "' PUBLICATION " + SustainedDatabase.PUBLICATION
                    + " WITH (copy_data = false)");
        } catch (SQLException e) {
            connection.close();
            throw e;
        }
        return new SubscriberReplication(target, connection);
    }

    /**
     * The apply worker retries a failed transaction for ever, logging it; PostgreSQL 15 and later count the failures
     * in {@code pg_stat_subscription_stats}.
     */
    @Override
    public void checkHealthy() throws SQLException {
        if (connection.getMetaData().getDatabaseMajorVersion() < 15) {
            return;
        }
        try (Statement statement = connection.createStatement();
                ResultSet rs = statement.executeQuery("SELECT apply_error_count FROM pg_stat_subscription_stats"
                        + " WHERE subname = '" + SUBSCRIPTION + "'")) {
            if (rs.next() && rs.getLong(1) > 0) {
                throw new IllegalStateException("PostgreSQL's apply worker failed " + rs.getLong(1)
                        + " time(s); its error is in the target's log, "
                        + target.dataDirectory().resolveSibling("postgres.log"));
            }
        }
    }

    @Override
    public void close() throws SQLException {
        try (connection;
                Statement statement = connection.createStatement()) {
            statement.execute("DROP SUBSCRIPTION IF EXISTS " + SUBSCRIPTION);
        }
    }
}
