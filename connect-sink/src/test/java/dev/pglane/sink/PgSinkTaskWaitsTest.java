package dev.pglane.sink;

import static dev.pglane.sink.TaskRecords.LEDGER_0;
import static dev.pglane.sink.TaskRecords.LEDGER_TOPIC;
import static dev.pglane.sink.TaskRecords.MARKERS;
import static dev.pglane.sink.TaskRecords.end;
import static dev.pglane.sink.TaskRecords.insert;
import static dev.pglane.sink.TaskRecords.start;
import static dev.pglane.sink.TaskRecords.update;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.pglane.connect.logging.LogCapture;
import dev.pglane.sink.apply.TargetServer;
import dev.pglane.wire.Lsn;
import dev.pglane.wire.marker.DataCollectionCount;
import dev.pglane.wire.marker.Marker;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.function.Predicate;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;

/** Waits the task cannot end by itself are told, naming what it waits for; once the cause goes, it goes on. */
@Timeout(value = 180, unit = TimeUnit.SECONDS)
class PgSinkTaskWaitsTest {
    @RegisterExtension
    static final TargetServer target = new TargetServer();

    private final TaskRecords feed = new TaskRecords();

    @BeforeEach
    void cleanTarget() throws SQLException {
        target.execute(
                "DROP TABLE IF EXISTS public.ledger, public.pglane_progress",
                "CREATE TABLE public.ledger (id int PRIMARY KEY, note text)",
                "INSERT INTO public.ledger VALUES (1, 'one')");
    }

    @Test
    void aLockHeldOutsideTheSinkIsReportedRetriedAndOutlived() throws Exception {
        Map<String, String> settings = Map.of(
                PgSinkConfig.APPLY_LOCK_TIMEOUT_MS, "300",
                PgSinkConfig.DEADLOCK_CHECK_INTERVAL_MS, "50",
                PgSinkConfig.APPLY_RETRY_MAX, "1000");
        FakeSinkTaskContext context = SinkTaskHarness.context();
        try (LogCapture log = LogCapture.start();
                Connection holder = target.connect();
                Statement st = holder.createStatement()) {
            st.execute("SET application_name = 'maintenance-job'");
            int holderPid = pid(st);
            holder.setAutoCommit(false);
            st.execute("SELECT * FROM public.ledger WHERE id = 1 FOR UPDATE");
            PgSinkTask task = SinkTaskHarness.startTask(target, context, 1, settings);
            try {
                ConnectLoop connect = new ConnectLoop(task, context);
                connect.deliver(List.of(
                        feed.marker(start()),
                        feed.change(LEDGER_0, update(950, 1, 1, "changed")),
                        feed.marker(end(950, "0/9500", 1))));
                awaitLine(
                        connect,
                        log,
                        l -> l.startsWith("WARN ")
                                && l.contains("xid 950")
                                && l.contains("for a lock held outside the sink by pid " + holderPid
                                        + " (application 'maintenance-job'")
                                && l.contains(", role postgres, ")
                                && l.contains(", waiting on Client/ClientRead, query id ")
                                && !l.contains("FOR UPDATE")); // another application's SQL text is never logged
                awaitLine(connect, log, l -> l.contains("Retrying xid 950") && l.contains("lock timeout"));

                holder.commit();
                SinkTaskHarness.awaitProgress(target, connect, Lsn.parse("0/9500"));
            } finally {
                task.stop();
            }
        }
        assertEquals(List.of("1:changed"), SinkTaskHarness.ledgerRows(target));
    }

    @Test
    void aStatementOverTheStatementTimeoutIsCancelledAndRetriedUntilItFits() throws Exception {
        target.execute(
                "DROP TABLE IF EXISTS public.brake",
                "CREATE TABLE public.brake (engaged boolean NOT NULL)",
                "INSERT INTO public.brake VALUES (true)",
                "CREATE OR REPLACE FUNCTION public.slow_ledger() RETURNS trigger LANGUAGE plpgsql"
                        + " SET search_path = pg_catalog AS $$ BEGIN IF (SELECT engaged FROM public.brake) THEN"
                        + " PERFORM pg_sleep(1); END IF; RETURN NEW; END $$",
                "CREATE TRIGGER slow BEFORE UPDATE ON public.ledger FOR EACH ROW EXECUTE FUNCTION public.slow_ledger()",
                // apply sessions run as replicas: only an ALWAYS trigger fires for them
                "ALTER TABLE public.ledger ENABLE ALWAYS TRIGGER slow");
        Map<String, String> settings = Map.of(
                PgSinkConfig.APPLY_STATEMENT_TIMEOUT_MS, "200",
                PgSinkConfig.RETRY_BACKOFF_MS, "50",
                PgSinkConfig.APPLY_RETRY_MAX, "1000");
        FakeSinkTaskContext context = SinkTaskHarness.context();
        try (LogCapture log = LogCapture.start()) {
            PgSinkTask task = SinkTaskHarness.startTask(target, context, 1, settings);
            try {
                ConnectLoop connect = new ConnectLoop(task, context);
                connect.deliver(List.of(
                        feed.marker(start()),
                        feed.change(LEDGER_0, update(952, 1, 1, "slow")),
                        feed.marker(end(952, "0/9520", 1))));
                awaitLine(connect, log, l -> l.contains("Retrying xid 952") && l.contains("statement timeout"));
                assertEquals(List.of("1:one"), SinkTaskHarness.ledgerRows(target), "nothing of it committed yet");

                target.execute("UPDATE public.brake SET engaged = false");
                SinkTaskHarness.awaitProgress(target, connect, Lsn.parse("0/9520"));
            } finally {
                task.stop();
            }
        }
        assertEquals(List.of("1:slow"), SinkTaskHarness.ledgerRows(target));
    }

    @Test
    void aTransactionWaitingForATopicTheSinkDoesNotConsumeSaysSo() throws Exception {
        FakeSinkTaskContext context = new FakeSinkTaskContext(List.of(MARKERS, LEDGER_0));
        Map<String, String> settings = Map.of(BufferingSettings.TRANSACTION_WAIT_WARN_MS, "200");
        Marker.End spanning = new Marker.End(
                7,
                951,
                Lsn.parse("0/9000"),
                Lsn.parse("0/9600"),
                1_700_000_000_000_951L,
                2,
                List.of(
                        new DataCollectionCount("public.ledger", 1, LEDGER_TOPIC),
                        new DataCollectionCount("public.other", 1, "shop.public.other")));
        try (LogCapture log = LogCapture.start()) {
            PgSinkTask task = SinkTaskHarness.startTask(target, context, 1, settings);
            try {
                ConnectLoop connect = new ConnectLoop(task, context);
                connect.deliver(List.of(
                        feed.marker(start()), feed.change(LEDGER_0, insert(951, 1, 2, "two")), feed.marker(spanning)));
                awaitLine(
                        connect,
                        log,
                        l -> l.startsWith("WARN ")
                                && l.contains("xid 951 (end LSN 0/9600) has waited")
                                && l.contains("for its records on [shop.public.other]")
                                && l.contains(
                                        "this sink consumes no partition of [shop.public.other]: add them to topics"));
            } finally {
                task.stop();
            }
        }
        assertEquals(List.of("1:one"), SinkTaskHarness.ledgerRows(target), "nothing after it applied");
    }

    /** Drives the task until a captured log line matches. */
    private static void awaitLine(ConnectLoop connect, LogCapture log, Predicate<String> wanted) {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
        while (log.lines().stream().noneMatch(wanted)) {
            assertTrue(System.nanoTime() < deadline, () -> "no such line; logged: " + log.lines());
            connect.deliver(List.of());
            Thread.onSpinWait();
        }
    }

    private static int pid(Statement st) throws SQLException {
        try (ResultSet rs = st.executeQuery("SELECT pg_backend_pid()")) {
            rs.next();
            return rs.getInt(1);
        }
    }
}
