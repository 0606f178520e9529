package dev.pglane.sink.apply;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.Arrays;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;

/** The blocking check against a real lock wait: finds the holder and cancels the waiter. */
@Timeout(value = 2, unit = TimeUnit.MINUTES)
class BlockingMonitorTest {
    @RegisterExtension
    static final TargetServer server =
            new TargetServer("CREATE TABLE public.locked (id int PRIMARY KEY)", "INSERT INTO public.locked VALUES (1)");

    private static int pid(Connection connection) throws SQLException {
        try (Statement st = connection.createStatement();
                ResultSet rs = st.executeQuery("SELECT pg_backend_pid()")) {
            rs.next();
            return rs.getInt(1);
        }
    }

    @Test
    void findsTheSessionHoldingTheLockAndCancelsTheWaiter() throws Exception {
        try (Connection holder = server.connect();
                Connection waiter = server.connect();
                BlockingMonitor monitor = new BlockingMonitor(server.endpoint(), "blocking-test")) {
            int holderPid = pid(holder); // before its last statement, which pg_stat_activity shows
            holder.setAutoCommit(false);
            holder.createStatement()
                    .execute("UPDATE public.locked SET id = id WHERE id = 1 AND 'secret-literal' IS NOT NULL");
            int waiterPid = pid(waiter);
            assertArrayEquals(new int[0], monitor.blockingPids(waiterPid), "not waiting yet");

            CompletableFuture<Void> blocked = CompletableFuture.runAsync(() -> {
                try (Statement st = waiter.createStatement()) {
                    st.execute("UPDATE public.locked SET id = id WHERE id = 1");
                } catch (SQLException e) {
                    throw new IllegalStateException(e.getSQLState(), e);
                }
            });
            int[] blockers = awaitBlocked(monitor, waiterPid, Duration.ofSeconds(30));
            assertArrayEquals(new int[] {holderPid}, blockers);
            String holderSaid = monitor.describe(blockers[0]);
            assertTrue(
                    holderSaid.startsWith("pid " + blockers[0] + " (application '")
                            && holderSaid.contains("role postgres")
                            && holderSaid.contains("idle in transaction")
                            && holderSaid.contains("query id "),
                    holderSaid);
            assertFalse(holderSaid.contains("secret-literal") || holderSaid.contains("UPDATE"), holderSaid);
            String waiterSaid = monitor.describe(waiterPid);
            assertTrue(waiterSaid.contains("waiting on Lock/transactionid"), waiterSaid);
            assertFalse(waiterSaid.contains("UPDATE"), waiterSaid);

            monitor.cancel(waiterPid);
            ExecutionException failure = awaitFailure(blocked);
            assertEquals("57014", failure.getCause().getMessage(), "query_canceled");
            holder.rollback();
        }
    }

    private static int[] awaitBlocked(BlockingMonitor monitor, int pid, Duration timeout) throws SQLException {
        long deadline = System.nanoTime() + timeout.toNanos();
        int[] blockers = monitor.blockingPids(pid);
        while (blockers.length == 0 && System.nanoTime() < deadline) {
            Thread.onSpinWait();
            blockers = monitor.blockingPids(pid);
        }
        assertTrue(blockers.length > 0, "no lock wait within " + timeout + ": " + Arrays.toString(blockers));
        return blockers;
    }

    private static ExecutionException awaitFailure(CompletableFuture<Void> blocked)
            throws InterruptedException, TimeoutException {
        try {
            blocked.get(30, TimeUnit.SECONDS);
        } catch (ExecutionException e) {
            return e;
        }
        throw new AssertionError("the blocked statement completed although it was cancelled");
    }
}
