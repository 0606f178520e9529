package dev.pglane.sink.schedule;

import static dev.pglane.sink.schedule.SchedulerHarness.insertAccount;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * Commit-order deadlocks: transactions the write sets call independent still share a lock the
 * scheduler cannot see (in PostgreSQL: a target-only constraint, a trigger); the later one took it
 * first. The deadlock check must pick the later transaction as the victim and finish both in order.
 */
@Timeout(60)
class CommitOrderDeadlockTest {
    private static final Duration INTERVAL = Duration.ofMillis(200);
    /** Generous against a loaded machine; the design bound is about two intervals. */
    private static final Duration RESOLVED_WITHIN = INTERVAL.multipliedBy(6);

    @Test
    void laterTransactionWaitingForItsTurnIsRolledBackAndRerun() throws Exception {
        try (SchedulerHarness harness = new SchedulerHarness(2, INTERVAL, 0)) {
            FakeDatabase db = harness.db;
            db.script(1, (session, attempt) -> {
                db.await(session, () -> db.isLocked("hidden"), "xid 2 to take the hidden lock");
                session.lock("hidden");
            });
            db.script(2, (session, attempt) -> session.lock("hidden"));
            assertLaterTransactionYields(harness, "2: commit-order deadlock");
        }
    }

    @Test
    void laterTransactionStillApplyingIsCancelledAndRerun() throws Exception {
        try (SchedulerHarness harness = new SchedulerHarness(2, INTERVAL, 0)) {
            FakeDatabase db = harness.db;
            db.script(1, (session, attempt) -> {
                session.lock("k");
                db.await(session, () -> db.isLocked("h"), "xid 2 to take h");
                session.lock("h");
            });
            db.script(2, (session, attempt) -> {
                session.lock("h");
                if (attempt == 1) {
                    db.await(session, () -> db.isLocked("k"), "xid 1 to take k");
                }
                session.lock("k");
            });
            assertLaterTransactionYields(harness, "2: canceling statement due to user request");
        }
    }

    @Test
    void slowHeadThatWaitsForNobodyIsLeftAlone() throws Exception {
        try (SchedulerHarness harness = new SchedulerHarness(2, Duration.ofMillis(50), 0)) {
            FakeDatabase db = harness.db;
            RecordingListener listener = harness.listener;
            db.script(1, (session, attempt) -> {
                int seen = listener.samples();
                db.await(session, () -> listener.samples() >= seen + 4, "four deadlock checks");
            });
            harness.submit(insertAccount(1, 1), insertAccount(2, 2));
            harness.awaitIdle();
            harness.scheduler.checkFailure();

            assertEquals(List.of(1L, 2L), db.committedXids());
            assertEquals(List.of(), listener.victims());
            assertEquals(List.of(), listener.retries());
            assertEquals(1, db.attemptsOf(2));
        }
    }

    /** Runs xid 1 and 2, staged to deadlock, and checks that xid 2 yielded once and both committed in order. */
    private static void assertLaterTransactionYields(SchedulerHarness harness, String retry) throws Exception {
        long start = System.nanoTime();
        harness.submit(insertAccount(1, 1), insertAccount(2, 2));
        harness.awaitIdle();
        Duration took = Duration.ofNanos(System.nanoTime() - start);
        harness.scheduler.checkFailure();

        assertEquals(List.of(1L, 2L), harness.db.committedXids());
        assertEquals(List.of(2L), harness.listener.victims());
        assertEquals(List.of(retry), harness.listener.retries());
        assertEquals(1, harness.db.attemptsOf(1));
        assertEquals(2, harness.db.attemptsOf(2));
        assertTrue(took.compareTo(RESOLVED_WITHIN) < 0, "resolved after " + took);
    }
}
