package dev.pglane.sink.schedule;

import static dev.pglane.sink.schedule.SchedulerHarness.insertAccount;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.pglane.sink.schedule.FakeDatabase.Attempt;
import java.sql.SQLException;
import java.time.Duration;
import java.util.Collections;
import java.util.List;
import org.apache.kafka.connect.errors.ConnectException;
import org.apache.kafka.connect.errors.RetriableException;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

@Timeout(60)
class ApplySchedulerFailureTest {
    private static final Duration INTERVAL = Duration.ofMillis(50);

    @Test
    void transientErrorAtTheHeadIsRetried() throws Exception {
        try (SchedulerHarness harness = new SchedulerHarness(1, INTERVAL, 3)) {
            harness.db.script(1, (session, attempt) -> {
                if (attempt <= 2) {
                    throw new SQLException("deadlock detected", "40P01");
                }
            });
            harness.submit(insertAccount(1, 1));
            harness.awaitIdle();
            harness.scheduler.checkFailure();
            assertEquals(List.of(1L), harness.db.committedXids());
            assertEquals(3, harness.db.attemptsOf(1));
            assertEquals(Collections.nCopies(2, "1: deadlock detected"), harness.listener.retries());
        }
    }

    @Test
    void retriesAtTheHeadAreLimited() throws Exception {
        try (SchedulerHarness harness = new SchedulerHarness(1, INTERVAL, 2)) {
            harness.db.script(2, (session, attempt) -> {
                throw new SQLException("could not serialize access", "40001");
            });
            harness.submit(insertAccount(1, 1), insertAccount(2, 2), insertAccount(3, 3));
            harness.awaitIdle();
            ConnectException failure = assertThrows(ConnectException.class, harness.scheduler::checkFailure);
            assertFalse(failure instanceof RetriableException);
            assertTrue(failure.getMessage().startsWith("Applying xid 2 (end LSN "), failure.getMessage());
            assertTrue(
                    failure.getMessage()
                            .contains("failed after 2 retries: could not serialize access (SQLState 40001)"),
                    failure.getMessage());
            assertTrue(failure.getMessage().endsWith(ApplyFailures.WHAT_NOW), "what to do about it");
            assertEquals(3, harness.db.attemptsOf(2));
            assertEquals(1, harness.scheduler.committedSequence());
            assertEquals(0, harness.db.attemptsOf(3), "nothing runs after a failure");
        }
    }

    @Test
    void errorBehindTheHeadRerunsTheTransactionAfterItsPredecessors() throws Exception {
        try (SchedulerHarness harness = new SchedulerHarness(2, INTERVAL, 0)) {
            FakeDatabase db = harness.db;
            db.script(1, (session, attempt) -> db.await(session, () -> db.rolledBack(2), "xid 2 to fail"));
            db.script(2, (session, attempt) -> {
                if (attempt == 1) {
                    throw new SQLException("duplicate key value violates unique constraint", "23505");
                }
            });
            harness.submit(insertAccount(1, 1), insertAccount(2, 2));
            harness.awaitIdle();
            harness.scheduler.checkFailure();
            assertEquals(List.of(1L, 2L), db.committedXids());
            List<Attempt> attempts = db.attempts();
            Attempt first =
                    attempts.stream().filter(a -> a.xid() == 1).findFirst().orElseThrow();
            Attempt rerun = attempts.stream()
                    .filter(a -> a.xid() == 2 && a.committed())
                    .findFirst()
                    .orElseThrow();
            assertTrue(rerun.start() > first.end(), "the re-run started only after xid 1 committed");
            assertEquals(List.of("2: duplicate key value violates unique constraint"), harness.listener.retries());
        }
    }

    @Test
    void lostConnectionStopsEverythingWithARetriableFailure() throws Exception {
        try (SchedulerHarness harness = new SchedulerHarness(3, INTERVAL, 3)) {
            FakeDatabase db = harness.db;
            db.script(1, (session, attempt) -> {
                db.await(session, () -> db.openTransactions() == 3 && db.attemptsOf(3) == 1, "all three open");
                throw new SQLException("An I/O error occurred while sending to the backend.", "08006");
            });
            harness.submit(insertAccount(1, 1), insertAccount(2, 2), insertAccount(3, 3));
            harness.awaitIdle();
            RetriableException failure = assertThrows(RetriableException.class, harness.scheduler::checkFailure);
            assertTrue(failure.getMessage().startsWith("Applying xid 1 (end LSN "), failure.getMessage());
            assertTrue(failure.getMessage().contains("An I/O error occurred"), failure.getMessage());
            db.await(null, () -> db.openTransactions() == 0 && db.allSessionsClosed(), "workers to roll back");
            assertEquals(List.of(), db.commits());
            assertEquals(3, harness.scheduler.inFlight());
            assertEquals(4, harness.scheduler.submit(insertAccount(4, 4)), "accepted after the failure");
            assertEquals(4, harness.scheduler.inFlight());
            assertEquals(0, db.attemptsOf(4), "but never run");
        }
    }

    @Test
    void sqlExceptionWithoutStateIsALostConnection() throws Exception {
        try (SchedulerHarness harness = new SchedulerHarness(1, INTERVAL, 3)) {
            harness.db.script(1, (session, attempt) -> {
                throw new SQLException("This connection has been closed.");
            });
            harness.submit(insertAccount(1, 1));
            harness.awaitIdle();
            assertThrows(RetriableException.class, harness.scheduler::checkFailure);
            assertEquals(1, harness.db.attemptsOf(1));
        }
    }

    @Test
    void permanentErrorAtTheHeadFailsNamingTheTransaction() throws Exception {
        try (SchedulerHarness harness = new SchedulerHarness(1, INTERVAL, 3)) {
            harness.db.script(2, (session, attempt) -> {
                throw new SQLException("null value in column \"id\" violates not-null constraint", "23502");
            });
            harness.submit(insertAccount(1, 1), insertAccount(2, 2));
            harness.awaitIdle();
            ConnectException failure = assertThrows(ConnectException.class, harness.scheduler::checkFailure);
            assertFalse(failure instanceof RetriableException);
            assertEquals(
                    "Applying " + insertAccount(2, 2).describe()
                            + " failed: null value in column \"id\" violates not-null constraint (SQLState 23502)"
                            + ApplyFailures.WHAT_NOW,
                    failure.getMessage());
            assertInstanceOf(SQLException.class, failure.getCause());
            assertEquals(1, harness.db.attemptsOf(2));
            assertEquals(1, harness.scheduler.committedSequence());
        }
    }

    @Test
    void runtimeFailureOfTheApplierFailsAtOnce() throws Exception {
        try (SchedulerHarness harness = new SchedulerHarness(2, INTERVAL, 3)) {
            harness.db.script(1, (session, attempt) -> {
                throw new ConnectException("insert_exists on public.accounts, key (id)=(1)");
            });
            harness.submit(insertAccount(1, 1), insertAccount(2, 2));
            harness.awaitIdle();
            ConnectException failure = assertThrows(ConnectException.class, harness.scheduler::checkFailure);
            assertTrue(failure.getMessage().startsWith("Applying xid 1 (end LSN "), failure.getMessage());
            assertTrue(failure.getMessage().endsWith("failed: insert_exists on public.accounts, key (id)=(1)"));
            assertEquals(1, harness.db.attemptsOf(1));
            assertEquals(List.of(), harness.db.commits());
        }
    }
}
