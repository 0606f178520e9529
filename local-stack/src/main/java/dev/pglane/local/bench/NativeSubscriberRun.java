package dev.pglane.local.bench;

import dev.pglane.local.stack.PostgresNode;
import java.sql.Connection;
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
                                + Subscriptions.connectionString(source) + "' PUBLICATION " + Backlog.PUBLICATION
                                + " WITH (create_slot = false, slot_name = '" + slot
                                + "', copy_data = false, enabled = true)"),
                        () -> Subscriptions.checkNoApplyErrors(connection, SUBSCRIPTION, target));
            } finally {
                // drops the slot on the source too
                statement.execute("DROP SUBSCRIPTION IF EXISTS " + SUBSCRIPTION);
            }
        }
    }
}
