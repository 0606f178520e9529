package dev.pglane.source.housekeeping;

import static org.junit.jupiter.api.Assertions.assertDoesNotThrow;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.pglane.connect.logging.LogCapture;
import dev.pglane.source.emit.FailureSlot;
import io.zonky.test.db.postgres.embedded.EmbeddedPostgres;
import java.io.IOException;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.function.BooleanSupplier;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/** heartbeat.action.query against a real server: it runs every interval, survives a failing run, stops when closed. */
class HeartbeatActionTest {
    private static final Duration INTERVAL = Duration.ofMillis(100);
    private static EmbeddedPostgres server;

    @BeforeAll
    static void startServer() throws IOException {
        server = EmbeddedPostgres.builder().start();
    }

    @AfterAll
    static void stopServer() throws IOException {
        server.close();
    }

    @Test
    void theQueryRunsEveryIntervalAndAFailingRunIsWarnedOfAndTriedAgain() throws Exception {
        FailureSlot failures = new FailureSlot();
        try (Connection c = server.getPostgresDatabase().getConnection();
                Statement st = c.createStatement();
                LogCapture log = LogCapture.start()) {
            HeartbeatAction action = HeartbeatAction.start(
                    "heartbeat-test",
                    "INSERT INTO public.beats VALUES (pg_catalog.now())",
                    INTERVAL,
                    name -> server.getPostgresDatabase().getConnection(),
                    failures);
            try {
                awaitTrue(() -> !log.warnings().isEmpty(), "a WARN for the missing table");
                String warning = log.warnings().get(0);
                assertTrue(warning.contains("heartbeat.action.query fails"), warning);
                assertTrue(warning.contains("\"public.beats\" does not exist"), warning);

                st.execute("CREATE TABLE public.beats (at timestamptz)");
                awaitTrue(() -> count(st) >= 3, "three runs after the table exists");
                assertEquals(1, log.warnings().size(), "the same failure is warned of once: " + log.warnings());
            } finally {
                action.close();
            }
            // once the watch's thread has ended no run can follow: the count stays
            awaitTrue(
                    () -> Thread.getAllStackTraces().keySet().stream()
                            .noneMatch(t -> t.getName().equals("pglane-heartbeat-test-heartbeat-action")),
                    "the watch's thread to end");
            long afterClose = count(st);
            assertEquals(afterClose, count(st), "no run after close");
            assertDoesNotThrow(failures::rethrow, "a failing query does not fail the task");
        }
    }

    private static long count(Statement st) {
        try (ResultSet rs = st.executeQuery("SELECT count(*) FROM public.beats")) {
            rs.next();
            return rs.getLong(1);
        } catch (SQLException e) {
            return -1;
        }
    }

    private static void awaitTrue(BooleanSupplier condition, String what) throws InterruptedException {
        long deadline = System.nanoTime() + Duration.ofSeconds(20).toNanos();
        while (!condition.getAsBoolean()) {
            assertTrue(System.nanoTime() < deadline, "timed out waiting for " + what);
            Thread.sleep(20);
        }
    }
}
