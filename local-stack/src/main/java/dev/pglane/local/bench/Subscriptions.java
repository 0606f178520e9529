package dev.pglane.local.bench;

import dev.pglane.local.stack.PostgresNode;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;

/** What every benchmark that runs PostgreSQL's own subscriber needs: where it connects, and whether it is failing. */
public final class Subscriptions {
    private Subscriptions() {}

    /**
     * The subscription's connection string to {@code source}: the stack's own settings (CREATE SUBSCRIPTION takes no
     * bind parameters).
     */
    public static String connectionString(PostgresNode source) {
        return "host=" + source.host() + " port=" + source.port() + " dbname=" + source.database() + " user="
                + source.user() + " password=" + source.password();
    }

    /**
     * The apply worker retries a failed transaction for ever, logging it; PostgreSQL 15 and later count the failures
     * in {@code pg_stat_subscription_stats}, which turns a failing run into an error instead of a long wait.
     *
     * @param connection a session on {@code target}
     */
    public static void checkNoApplyErrors(Connection connection, String subscription, PostgresNode target)
            throws SQLException {
        if (connection.getMetaData().getDatabaseMajorVersion() < 15) {
            return;
        }
        try (PreparedStatement statement = connection.prepareStatement(
                "SELECT apply_error_count FROM pg_stat_subscription_stats WHERE subname = ?")) {
            statement.setString(1, subscription);
            try (ResultSet rs = statement.executeQuery()) {
                if (rs.next() && rs.getLong(1) > 0) {
                    throw new IllegalStateException("PostgreSQL's apply worker failed " + rs.getLong(1)
                            + " time(s); its error is in the target's log, "
                            + target.dataDirectory().resolveSibling("postgres.log"));
                }
            }
        }
    }
}
