package dev.pglane.sink.schedule;

import static dev.pglane.sink.schedule.SchedulerHarness.insertAccount;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Supplier;
import org.apache.kafka.connect.errors.ConnectException;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * The scheduler's threads never die quietly: whatever a worker or the deadlock check throws, an Error included,
 * halts the scheduler with a failure the task reports, instead of leaving it waiting for a commit that never comes.
 */
@Timeout(60)
class ApplyThreadFailureTest {
    private static final Duration INTERVAL = Duration.ofMillis(50);

    @Test
    void anErrorInAWorkerFailsTheScheduler() throws Exception {
        try (SchedulerHarness harness = new SchedulerHarness(2, INTERVAL, 3)) {
            harness.db.script(2, (session, attempt) -> {
                throw new StackOverflowError("injected into xid 2");
            });
            harness.submit(insertAccount(1, 1), insertAccount(2, 2), insertAccount(3, 3));
            harness.awaitIdle();
            ConnectException failure = assertThrows(ConnectException.class, harness.scheduler::checkFailure);
            assertTrue(failure.getMessage().contains("StackOverflowError: injected into xid 2"), failure.getMessage());
            assertTrue(
                    failure.getMessage().startsWith(SchedulerHarness.THREAD_PREFIX + "-worker-"), failure.getMessage());
            List<Long> committed = harness.db.committedXids();
            assertTrue(!committed.contains(2L) && !committed.contains(3L), "nothing commits after it: " + committed);
        }
    }

    @Test
    void anErrorInTheDeadlockCheckFailsTheScheduler() throws Exception {
        assertTheCheckFails(() -> new OutOfMemoryError("injected into the check"), "OutOfMemoryError");
    }

    /** E.g. a bug that reads a worker's status twice while the worker moves on. */
    @Test
    void anUnexpectedExceptionInTheDeadlockCheckFailsTheScheduler() throws Exception {
        assertTheCheckFails(() -> new NullPointerException("injected into the check"), "NullPointerException");
    }

    private static void assertTheCheckFails(Supplier<Throwable> thrown, String kind) throws Exception {
        AtomicReference<FakeDatabase> database = new AtomicReference<>();
        BlockingProbe failing = new BlockingProbe() {
            @Override
            public int[] blockingPids(int pid) {
                Throwable t = thrown.get();
                if (t instanceof Error e) {
                    throw e;
                }
                throw (RuntimeException) t;
            }

            @Override
            public void cancel(int pid) {
                database.get().cancel(pid); // how close() stops the head that waits below
            }

            @Override
            public String describe(int pid) {
                return "pid " + pid;
            }
        };
        try (SchedulerHarness harness = new SchedulerHarness(2, INTERVAL, 0, failing, false)) {
            FakeDatabase db = harness.db;
            database.set(db);
            // the head stays in apply() long enough for the check to ask whom it waits for
            db.script(1, (session, attempt) -> db.await(session, () -> false, "the scheduler to halt"));
            harness.submit(insertAccount(1, 1));
            harness.awaitIdle();
            ConnectException failure = assertThrows(ConnectException.class, harness.scheduler::checkFailure);
            assertTrue(
                    failure.getMessage().startsWith("The commit-order deadlock check failed: java.lang." + kind),
                    failure.getMessage());
        }
    }
}
