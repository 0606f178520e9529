package dev.pglane.local.fault;

import dev.pglane.local.stack.PostgresNode;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Duration;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Faults a PostgreSQL server inflicts on its clients: sessions terminated by an administrator, the server down for
 * a while. Each returns once the fault has happened; none waits for the clients to recover.
 */
public final class PostgresFaults {
    private static final Logger log = LoggerFactory.getLogger(PostgresFaults.class);

    private PostgresFaults() {}

    /**
     * Terminates every session whose {@code application_name} is {@code applicationName} or starts with {@code
     * applicationName-} (a connector's sessions: pglane names them {@code pglane-<connector>[-<role>]}); the
     * clients see SQLSTATE 57P01. Returns how many were terminated.
     */
    public static int terminateSessions(PostgresNode server, String applicationName) throws SQLException {
        int terminated = count(
                server,
                "SELECT count(pg_terminate_backend(pid)) FROM pg_stat_activity WHERE pid <> pg_backend_pid()"
                        + " AND (application_name = ? OR starts_with(application_name, ? || '-'))",
                applicationName);
        log.info("terminated {} sessions of {} on {}", terminated, applicationName, server);
        return terminated;
    }

    /**
     * Terminates the walsender streaming from {@code slot}: the source connector's replication connection ends
     * mid-stream. Returns whether a walsender was streaming from it.
     */
    public static boolean terminateWalSender(PostgresNode server, String slot) throws SQLException {
        boolean terminated = count(
                        server,
                        "SELECT count(pg_terminate_backend(active_pid)) FROM pg_replication_slots"
                                + " WHERE slot_name = ? AND active_pid IS NOT NULL",
                        slot)
                > 0;
        log.info("walsender of slot {} on {}: {}", slot, server, terminated ? "terminated" : "none active");
        return terminated;
    }

    /** Stops the server, keeps it down for {@code downtime}, and starts it again on the same port and data. */
    public static void downFor(PostgresNode server, Duration downtime) throws InterruptedException {
        server.stop();
        Thread.sleep(downtime.toMillis());
        server.start();
    }

    private static int count(PostgresNode server, String sql, String parameter) throws SQLException {
        try (Connection connection = server.open();
                PreparedStatement statement = connection.prepareStatement(sql)) {
            for (int i = 1; i <= statement.getParameterMetaData().getParameterCount(); i++) {
                statement.setString(i, parameter);
            }
            try (ResultSet rs = statement.executeQuery()) {
                rs.next();
                return rs.getInt(1);
            }
        }
    }
}
