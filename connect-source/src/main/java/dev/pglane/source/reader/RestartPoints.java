package dev.pglane.source.reader;

import dev.pglane.connect.database.ConnectionOpener;
import dev.pglane.source.PeriodicWatch;
import dev.pglane.source.emit.FailureSlot;
import dev.pglane.wire.Lsn;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
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
public final class RestartPoints extends PeriodicWatch {
    private static final Logger log = LoggerFactory.getLogger(RestartPoints.class);
    /** How often the WAL's position is looked at. */
    static final Duration PERIOD = Duration.ofSeconds(1);

    private final long intervalBytes;
    private Lsn lastLogged;

    /** A watch not started yet: {@link #start} starts one. */
    RestartPoints(String connectorName, long intervalBytes, ConnectionOpener connections, FailureSlot failures) {
        super(connectorName, "restart-points", PERIOD, connections, failures);
        this.intervalBytes = intervalBytes;
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
        watch.startThread();
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
    Lsn tick(Connection connection) throws SQLException {
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

    @Override
    protected void check(Connection connection) throws SQLException {
        tick(connection);
    }

    @Override
    protected String describe() {
        return "The restart-point watch";
    }

    @Override
    protected String whileFailing() {
        return "cannot log the running transactions; the slot's restart point moves only at the server's own"
                + " records until this works again";
    }
}
