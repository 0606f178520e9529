package dev.pglane.sink;

import static dev.pglane.sink.TaskRecords.LEDGER_0;
import static dev.pglane.sink.TaskRecords.LEDGER_1;
import static dev.pglane.sink.TaskRecords.MARKERS;
import static dev.pglane.sink.TaskRecords.PREFIX;

import dev.pglane.connect.config.DatabaseSettings;
import dev.pglane.sink.apply.TargetServer;
import dev.pglane.wire.Lsn;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/** Starts and drives a real {@link PgSinkTask} against a target server, for the task's tests. */
final class SinkTaskHarness {
    private SinkTaskHarness() {}

    static PgSinkTask startTask(
            TargetServer target, FakeSinkTaskContext context, int workers, Map<String, String> settings) {
        return startTask(target, context, "task-test", workers, settings);
    }

    /** A task of sink {@code name}: the name keeps its progress row and spill files apart from other sinks'. */
    static PgSinkTask startTask(
            TargetServer target, FakeSinkTaskContext context, String name, int workers, Map<String, String> settings) {
        Map<String, String> props = new HashMap<>(settings);
        props.put("name", name);
        if (!settings.containsKey("topics")) {
            props.putIfAbsent("topics.regex", "shop\\..*");
        }
        props.put(DatabaseSettings.HOST, "127.0.0.1");
        props.put(DatabaseSettings.PORT, Integer.toString(target.endpoint().port()));
        props.put(DatabaseSettings.NAME, "postgres");
        props.put(DatabaseSettings.USER, "postgres");
        props.put(DatabaseSettings.SSLMODE, "disable");
        props.put(PgSinkConfig.SOURCE_TOPIC_PREFIX, PREFIX);
        props.put(PgSinkConfig.APPLY_WORKERS, Integer.toString(workers));
        PgSinkTask task = new PgSinkTask();
        task.initialize(context);
        task.start(props);
        return task;
    }

    static FakeSinkTaskContext context() {
        return new FakeSinkTaskContext(List.of(MARKERS, LEDGER_0, LEDGER_1));
    }

    /** Drives the task the way Connect's loop does until the target's progress reaches {@code lsn}. */
    static void awaitProgress(TargetServer target, ConnectLoop connect, Lsn lsn) throws Exception {
        long deadline = System.nanoTime() + Duration.ofSeconds(60).toNanos();
        while (System.nanoTime() < deadline) {
            connect.deliver(List.of());
            Lsn applied = progress(target);
            if (applied != null && applied.compareTo(lsn) >= 0) {
                return;
            }
            Thread.onSpinWait();
        }
        throw new AssertionError("progress did not reach " + lsn + "; it is " + progress(target));
    }

    /** The progress table's end LSN, or null while it has none. */
    static Lsn progress(TargetServer target) throws SQLException {
        try (Connection c = target.connect();
                Statement st = c.createStatement();
                ResultSet rs = st.executeQuery("SELECT to_regclass('public.pglane_progress') IS NOT NULL")) {
            rs.next();
            if (!rs.getBoolean(1)) {
                return null;
            }
            // the task under test is the one sink that moves: a row of another sink stands at 0/0
            try (ResultSet p = st.executeQuery("SELECT max(end_lsn)::text FROM public.pglane_progress")) {
                return p.next() && p.getString(1) != null ? Lsn.parse(p.getString(1)) : null;
            }
        }
    }

    /** The ledger table's rows as {@code id:note}, in id order. */
    static List<String> ledgerRows(TargetServer target) throws SQLException {
        return target.rows("SELECT id || ':' || note FROM public.ledger ORDER BY id");
    }
}
