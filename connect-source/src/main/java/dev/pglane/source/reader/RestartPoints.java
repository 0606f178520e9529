package dev.pglane.source.reader;

import dev.pglane.connect.database.ConnectionOpener;
import dev.pglane.source.emit.FailureSlot;
import dev.pglane.wire.Lsn;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import org.apache.kafka.connect.errors.ConnectException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Lets the server move the slot's restart point as often as the WAL grows by {@code slot.restart.interval.bytes}.
 * Logical decoding moves a slot's {@code restart_lsn} only at a running-transactions record, which the server writes
 * every 15 s (and at checkpoints): under a heavy write load the slot then keeps 15 s of WAL more than Kafka needs,
 * 100 MB and more. This watch, on a thread and a connection of its own, looks at the WAL's insert position every
 * {@link #PERIOD} and, once it has moved that far since the last record, writes one with {@code
 * pg_log_standby_snapshot()} (PostgreSQL 16+; EXECUTE is the superuser's unless granted). An idle server gets none.
 */
public final class RestartPoints implements AutoCloseable {
    private static final Logger log = LoggerFactory.getLogger(RestartPoints.class);
    /** How often the WAL's position is looked at. */
    static final Duration PERIOD = Duration.ofSeconds(1);

    private static final Duration CLOSE_WAIT = Duration.ofSeconds(1);

    private final String connectorName;
    private final long intervalBytes;
    private final ConnectionOpener connections;
    private final FailureSlot failures;
    private final Thread thread;
    private volatile boolean closed;
    private Connection connection;
    private Lsn lastLogged;
    private String lastProblem;

    RestartPoints(String connectorName, long intervalBytes, ConnectionOpener connections, FailureSlot failures) {
        this.connectorName = connectorName;
        this.intervalBytes = intervalBytes;
        this.connections = connections;
        this.failures = failures;
        this.thread = new Thread(this::run, "pglane-" + connectorName + "-restart-points");
        thread.setDaemon(true);
    }

    /**
     * Starts the watch if the server can write the records and this role may: PostgreSQL 16 or later, not in
     * recovery, EXECUTE on {@code pg_log_standby_snapshot()}; else says once why not.
     *
     * @param sql a connection to ask on, not kept
     * @return the watch, or {@code null} when it does not run
     */
    public static RestartPoints start(
            String connectorName,
            long intervalBytes,
            Connection sql,
            ConnectionOpener connections,
            FailureSlot failures) {
        if (intervalBytes == 0) {
            return null;
        }
        String unable;
        try {
            unable = unable(sql);
        } catch (SQLException e) {
            unable = "cannot tell whether this role may: " + e.getMessage();
        }
        if (unable != null) {
            log.info(
                    "pglane source {}: the slot's restart point moves only at the server's own running-transactions"
                            + " records (every 15 s), so it may keep that much WAL more than Kafka needs: {}",
                    connectorName,
                    unable);
            return null;
        }
        RestartPoints watch = new RestartPoints(connectorName, intervalBytes, connections, failures);
        watch.thread.start();
        return watch;
    }

    /** Why the server cannot log running transactions for this role, or {@code null} when it can. */
    static String unable(Connection sql) throws SQLException {
        try (Statement st = sql.createStatement();
                ResultSet rs = st.executeQuery("SELECT pg_catalog.current_setting('server_version_num')::int,"
                        + " pg_catalog.pg_is_in_recovery()")) {
            rs.next();
            if (rs.getInt(1) < 160000) {
                return "pg_log_standby_snapshot() needs PostgreSQL 16 or later";
            }
            if (rs.getBoolean(2)) {
                return "the server is a standby, where the primary writes these records";
            }
        }
        try (Statement st = sql.createStatement();
                ResultSet rs = st.executeQuery("SELECT pg_catalog.has_function_privilege("
                        + "'pg_catalog.pg_log_standby_snapshot()', 'EXECUTE')")) {
            rs.next();
            return rs.getBoolean(1)
                    ? null
                    : "the role may not execute pg_log_standby_snapshot(); GRANT EXECUTE ON FUNCTION"
                            + " pg_catalog.pg_log_standby_snapshot() TO it, or set slot.restart.interval.bytes=0";
        }
    }

    /**
     * Writes a running-transactions record if the WAL has grown by the interval since the last one.
     *
     * @return the record's position, or {@code null} when none was due
     */
    Lsn tick() throws SQLException {
        if (connection == null) {
            connection = connections.open("pglane-" + connectorName + "-restart-points");
        }
        try (Statement st = connection.createStatement()) {
            Lsn now;
            try (ResultSet rs = st.executeQuery("SELECT pg_catalog.pg_current_wal_insert_lsn()::pg_catalog.text")) {
                rs.next();
                now = Lsn.parse(rs.getString(1));
            }
            if (lastLogged != null && now.asLong() - lastLogged.asLong() < intervalBytes) {
                return null;
            }
            try (ResultSet rs = st.executeQuery("SELECT pg_catalog.pg_log_standby_snapshot()::pg_catalog.text")) {
                rs.next();
                lastLogged = Lsn.parse(rs.getString(1));
                return lastLogged;
            }
        }
    }

    private void run() {
        try {
            while (!closed) {
                Thread.sleep(PERIOD.toMillis());
                try {
                    tick();
                    lastProblem = null;
                } catch (SQLException e) {
                    closeConnection();
                    if (!e.getMessage().equals(lastProblem)) {
                        log.warn(
                                "pglane source {}: cannot log the running transactions; the slot's restart point"
                                        + " moves only at the server's own records until this works again: {}",
                                connectorName,
                                e.getMessage());
                        lastProblem = e.getMessage();
                    }
                }
            }
        } catch (InterruptedException e) {
            // closing
        } catch (Throwable e) { // a watch that died quietly would let the slot keep WAL again
            if (!closed) {
                failures.fail(new ConnectException("The restart-point watch failed: " + e, e));
            }
        } finally {
            closeConnection();
        }
    }

    private void closeConnection() {
        if (connection != null) {
            try {
                connection.close();
            } catch (SQLException e) {
                log.debug("Closing the restart-point watch's connection failed", e);
            }
            connection = null;
        }
    }

    @Override
    public void close() {
        closed = true;
        thread.interrupt();
        try {
            thread.join(CLOSE_WAIT.toMillis());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
