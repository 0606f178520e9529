package dev.pglane.local.consistency;

import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Duration;

/** Connections of the workload and its checker, which go away while a server restarts (the soak restarts them). */
final class ServerConnections {
    /** How long a session keeps trying to connect again before it gives up. */
    private static final Duration REOPEN_TIMEOUT = Duration.ofMinutes(3);

    private static final long REOPEN_PAUSE_MILLIS = 500;

    private ServerConnections() {}

    static Connection open(String jdbcUrl) throws SQLException {
        return DriverManager.getConnection(jdbcUrl);
    }

    /**
     * The connection is gone: class 08 (connection exception), or the server shutting down or in recovery (57P01,
     * 57P02, 57P03).
     */
    static boolean isLost(SQLException e) {
        String state = e.getSQLState();
        return state != null && (state.startsWith("08") || state.startsWith("57P"));
    }

    /** Connects again, retrying while the server is down or starting. */
    static Connection reopen(String jdbcUrl, SQLException loss) throws SQLException {
        long deadline = System.nanoTime() + REOPEN_TIMEOUT.toNanos();
        SQLException last = loss;
        while (System.nanoTime() < deadline) {
            try {
                return open(jdbcUrl);
            } catch (SQLException e) {
                if (!isLost(e)) {
                    throw e;
                }
                last = e;
            }
            try {
                Thread.sleep(REOPEN_PAUSE_MILLIS);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                break;
            }
        }
        throw new SQLException("the server did not accept a connection again within " + REOPEN_TIMEOUT, last);
    }

    static void closeQuietly(Connection connection) {
        try {
            connection.close();
        } catch (SQLException e) {
            // already broken: nothing to release
        }
    }

    /** The session's last committed sequence number, 0 before its first. */
    static long sessionSeq(Connection connection, String table, int session) throws SQLException {
        try (PreparedStatement statement =
                connection.prepareStatement("SELECT n FROM " + table + " WHERE session = ?")) {
            statement.setInt(1, session);
            try (ResultSet rs = statement.executeQuery()) {
                long n = rs.next() ? rs.getLong(1) : 0;
                connection.commit();
                return n;
            }
        }
    }
}
