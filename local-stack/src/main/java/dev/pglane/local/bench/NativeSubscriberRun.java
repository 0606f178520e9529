package dev.pglane.local.bench;

import dev.pglane.local.stack.PostgresNode;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;

/**
 * PostgreSQL's own logical replication subscriber applying the backlog: a subscription on a slot created at the same
 * position as pglane's ({@code create_slot = false, copy_data = false}), timed from {@code CREATE SUBSCRIPTION} until
 * its replication origin's {@code remote_lsn} (the commit end LSN of the last transaction it applied) reaches the
 * backlog's end. Dropping the subscription afterwards drops its slot on the source, so each run needs its own.
 */
final class NativeSubscriberRun {
    static final String SYSTEM = "pg_native";
    private static final String SUBSCRIPTION = "bench_native";
    private static final String POSITION = "SELECT s.remote_lsn::text FROM pg_replication_origin_status s"
            + " JOIN pg_subscription sub ON s.external_id = 'pg_' || sub.oid WHERE sub.subname = '" + SUBSCRIPTION
            + "'";

    private final PostgresNode source;
    private final PostgresNode target;
    private final CpuMeter cpu;

    NativeSubscriberRun(PostgresNode source, PostgresNode target) {
        this.source = source;
        this.target = target;
        this.cpu = new CpuMeter(source, target);
    }

    /** The subscription's options, for the report. */
    static String describe() {
        return "CREATE SUBSCRIPTION ... WITH (create_slot = false, copy_data = false), other options at their"
                + " defaults (one apply worker; synchronous_commit off)";
    }

    CatchUpMeasurement measure(String database, String slot, Backlog.Info backlog, int run) throws Exception {
        try (Connection connection = target.open(database);
                Statement statement = connection.createStatement()) {
            CatchUpTimer timer = new CatchUpTimer(connection, POSITION, cpu);
            try {
                return timer.time(
                        CatchUpConfiguration.NATIVE,
                        run,
                        backlog,
                        () -> statement.execute("CREATE SUBSCRIPTION " + SUBSCRIPTION + " CONNECTION '"
                                + connectionString() + "' PUBLICATION " + Backlog.PUBLICATION
                                + " WITH (create_slot = false, slot_name = '" + slot
                                + "', copy_data = false, enabled = true)"),
                        () -> checkNoApplyErrors(connection));
            } finally {
                // drops the slot on the source too
                statement.execute("DROP SUBSCRIPTION IF EXISTS " + SUBSCRIPTION);
            }
        }
    }

    private String connectionString() {
        return "host=" + source.host() + " port=" + source.port() + " dbname=" + source.database() + " user="
                + source.user() + " password=" + source.password();
    }

    /**
     * The apply worker retries a failed transaction forever, logging it; PostgreSQL 15 and later count the failures
     * in {@code pg_stat_subscription_stats}, which turns a failing run into an error instead of a half-hour wait.
     */
    private void checkNoApplyErrors(Connection connection) throws SQLException {
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
}
