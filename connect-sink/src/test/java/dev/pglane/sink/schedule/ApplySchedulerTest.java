package dev.pglane.sink.schedule;

import static dev.pglane.sink.schedule.SchedulerHarness.insertAccount;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.pglane.sink.assemble.SourceTransaction;
import dev.pglane.sink.schedule.SampleTables.TxBuilder;
import dev.pglane.wire.marker.SnapshotChunk;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

@Timeout(60)
class ApplySchedulerTest {
    private static final Duration INTERVAL = Duration.ofMillis(50);

    @Test
    void independentTransactionsOverlapAndStillCommitInOrder() throws Exception {
        try (SchedulerHarness harness = new SchedulerHarness(2, INTERVAL, 3)) {
            FakeDatabase db = harness.db;
            db.script(1, (session, attempt) -> db.await(session, () -> db.openTransactions() >= 2, "xid 2 to open"));
            harness.submit(insertAccount(1, 1), insertAccount(2, 2));
            harness.awaitIdle();
            harness.scheduler.checkFailure();
            assertEquals(2, db.maxOpen());
            assertEquals(List.of(1L, 2L), db.committedXids());
            assertEquals(List.of(1L, 2L), harness.listener.committedSequences());
        }
    }

    @Test
    void snapshotChunksOfDisjointKeyRangesRunOnTwoWorkersAtOnce() throws Exception {
        try (SchedulerHarness harness = new SchedulerHarness(2, INTERVAL, 3)) {
            FakeDatabase db = harness.db;
            db.script(1, (session, attempt) -> db.await(session, () -> db.openTransactions() >= 2, "xid 2 to open"));
            harness.submit(chunk(1, 1, 500), chunk(2, 501, 1000));
            harness.awaitIdle();
            harness.scheduler.checkFailure();
            assertEquals(2, db.maxOpen());
            assertEquals(List.of(1L, 2L), db.committedXids());
            db.assertNoConflictingOverlap(Set.of());
        }
    }

    /**
     * A table group's sink gets transactions without a row of its tables: one queued behind them records their
     * position, so only the last of a run commits on the target. A chunk without rows still commits (it deletes its
     * key range's rows), and the last transaction of all commits since nothing comes after it.
     */
    @Test
    void transactionsThatChangeNothingCommitOnlyWhenNothingQueuedCarriesThem() throws Exception {
        try (SchedulerHarness harness = new SchedulerHarness(2, INTERVAL, 3)) {
            FakeDatabase db = harness.db;
            db.script(1, (session, attempt) -> db.await(session, () -> harness.scheduler.inFlight() == 6, "6 queued"));
            SourceTransaction emptyChunk = new TxBuilder(4)
                    .snapshotChunk(new SnapshotChunk("s", "public.accounts", 1, true, false, null, false))
                    .build();
            harness.submit(
                    insertAccount(1, 1),
                    new TxBuilder(2).build(),
                    new TxBuilder(3).build(),
                    emptyChunk,
                    new TxBuilder(5).build(),
                    new TxBuilder(6).build());
            harness.awaitIdle();
            harness.scheduler.checkFailure();
            assertEquals(List.of(1L, 4L, 6L), db.committedXids());
            assertEquals(List.of(1L, 2L, 3L, 4L, 5L, 6L), harness.listener.committedSequences());
        }
    }

    /** A snapshot chunk of the accounts {@code from} to {@code to}. */
    private static SourceTransaction chunk(long xid, int from, int to) {
        TxBuilder chunk = new TxBuilder(xid);
        for (int id = from; id <= to; id++) {
            chunk.read("accounts", SampleTables.account(id, null, 0));
        }
        return chunk.build();
    }

    @Test
    void barrierWaitsForEarlierAndHoldsBackLaterTransactions() throws Exception {
        try (SchedulerHarness harness = new SchedulerHarness(4, INTERVAL, 3)) {
            FakeDatabase db = harness.db;
            RecordingListener listener = harness.listener;
            SourceTransaction truncate = new TxBuilder(3).truncate("audit").build();
            AtomicReference<List<Long>> committedBefore = new AtomicReference<>();
            AtomicInteger laterAttempts = new AtomicInteger(-1);
            db.script(3, (session, attempt) -> {
                committedBefore.set(db.committedXids());
                // xid 4 and 5 stay queued while three workers are free: they wait for the barrier
                db.await(session, () -> listener.lastOnDependencies() == 2, "two transactions waiting on the barrier");
                laterAttempts.set(db.attemptsOf(4) + db.attemptsOf(5));
            });
            harness.submit(
                    insertAccount(1, 1), insertAccount(2, 2), truncate, insertAccount(4, 4), insertAccount(5, 5));
            harness.awaitIdle();
            harness.scheduler.checkFailure();
            assertEquals(List.of(1L, 2L, 3L, 4L, 5L), db.committedXids());
            assertEquals(List.of(1L, 2L), committedBefore.get(), "earlier transactions committed first");
            assertEquals(0, laterAttempts.get(), "a later transaction started during the barrier");
            db.assertNoConflictingOverlap(Set.of(3L));
        }
    }

    @Test
    void aChainOfDependentTransactionsStaysOnTheWorkerThatCommitsEachLink() throws Exception {
        try (SchedulerHarness harness = new SchedulerHarness(4, INTERVAL, 3)) {
            FakeDatabase db = harness.db;
            Map<Long, FakeSession> ranOn = new ConcurrentHashMap<>();
            for (long xid = 1; xid <= 6; xid++) {
                long link = xid;
                db.script(link, (session, attempt) -> {
                    ranOn.put(link, session);
                    if (link == 1) { // hold the first link until the whole chain is queued
                        db.await(session, () -> db.signalled("queued"), "the chain to be queued");
                    }
                });
            }
            harness.submit(insertAccount(1, 1));
            for (long xid = 2; xid <= 6; xid++) {
                harness.submit(new TxBuilder(xid)
                        .update("accounts", SampleTables.account(1, null, 0), SampleTables.account(1, null, xid))
                        .build());
            }
            db.signal("queued");
            harness.awaitIdle();
            harness.scheduler.checkFailure();
            assertEquals(List.of(1L, 2L, 3L, 4L, 5L, 6L), db.committedXids());
            assertEquals(1, Set.copyOf(ranOn.values()).size(), "each link went to another worker: " + ranOn);
        }
    }

    @Test
    void reportsSequencesAndInFlightTransactions() throws Exception {
        try (SchedulerHarness harness = new SchedulerHarness(2, INTERVAL, 3)) {
            FakeDatabase db = harness.db;
            db.script(1, (session, attempt) -> db.await(session, () -> db.signalled("go"), "the test to let xid 1 go"));
            ApplyScheduler scheduler = harness.scheduler;
            assertEquals(1, scheduler.submit(insertAccount(1, 1)));
            assertEquals(2, scheduler.submit(insertAccount(2, 2)));
            assertEquals(3, scheduler.submit(insertAccount(3, 3)));
            assertEquals(0, scheduler.committedSequence());
            assertEquals(3, scheduler.inFlight());
            assertFalse(scheduler.awaitIdle(Duration.ofMillis(1)));
            db.signal("go");
            harness.awaitIdle();
            assertEquals(3, scheduler.committedSequence());
            assertEquals(0, scheduler.inFlight());
        }
    }

    @Test
    void namesItsThreads() {
        try (SchedulerHarness harness = new SchedulerHarness(2, INTERVAL, 3)) {
            Set<String> names = threadNames();
            String prefix = SchedulerHarness.THREAD_PREFIX;
            assertTrue(
                    names.containsAll(Set.of(prefix + "-worker-0", prefix + "-worker-1", prefix + "-deadlock-check")));
            harness.close();
            assertTrue(threadNames().stream().noneMatch(name -> name.startsWith(prefix)), "threads left running");
        }
    }

    @Test
    void closeRollsBackOpenWorkCancelsStuckStatementsAndClosesSessions() throws Exception {
        SchedulerHarness harness = new SchedulerHarness(2, INTERVAL, 3);
        FakeDatabase db = harness.db;
        // xid 1 never finishes on its own: only a cancel ends its wait; xid 2 applies and waits for its turn
        db.script(1, (session, attempt) -> db.await(session, () -> false, "a cancel"));
        harness.submit(insertAccount(1, 1), insertAccount(2, 2));
        db.await(null, () -> db.openTransactions() == 2 && db.attemptsOf(2) == 1, "both transactions open");
        harness.close();
        assertEquals(0, db.openTransactions());
        assertTrue(db.allSessionsClosed());
        assertEquals(List.of(), db.commits());
        assertTrue(db.rolledBack(1) && db.rolledBack(2));
        assertFalse(harness.scheduler.awaitIdle(Duration.ofSeconds(10)), "closed with both uncommitted");
        harness.scheduler.checkFailure();
        assertThrows(IllegalStateException.class, () -> harness.scheduler.submit(insertAccount(3, 3)));
        harness.close();
    }

    private static Set<String> threadNames() {
        return Thread.getAllStackTraces().keySet().stream()
                .filter(Thread::isAlive)
                .map(Thread::getName)
                .collect(Collectors.toSet());
    }
}
