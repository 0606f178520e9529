package dev.pglane.sink.schedule;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.pglane.sink.assemble.SourceTransaction;
import dev.pglane.sink.schedule.FakeDatabase.Commit;
import dev.pglane.sink.schedule.RandomWorkload.Workload;
import java.time.Duration;
import java.util.List;
import java.util.stream.LongStream;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * Parallel apply of random workloads must be indistinguishable from applying them one by one: same committed state
 * after every commit, commits in submission order, each TRUNCATE alone, and yet real parallelism. Without overlap, no
 * two conflicting transactions are open at once (no lock ever waited for); with it, a transaction starts at the
 * earliest once every earlier one it conflicts with has applied, and dependent transactions do overlap.
 */
@Timeout(240)
class ApplySchedulerPropertyTest {
    private static final int SEEDS = 25;
    private static final int TRANSACTIONS = 120;

    private record Outcome(int maxOpen, int overlapped) {}

    @ParameterizedTest(name = "{0} workers, overlap {1}")
    @CsvSource({"1, false", "2, false", "4, false", "8, false", "1, true", "2, true", "4, true", "8, true"})
    void parallelApplyEqualsSerialApply(int workers, boolean overlap) throws Exception {
        int maxOpen = 0;
        int overlapped = 0;
        for (long seed = 1; seed <= SEEDS; seed++) {
            Outcome outcome = run(seed, workers, overlap);
            maxOpen = Math.max(maxOpen, outcome.maxOpen());
            overlapped += outcome.overlapped();
        }
        if (workers > 1) {
            assertTrue(maxOpen > 1, "independent transactions never ran concurrently");
        } else {
            assertEquals(1, maxOpen);
        }
        assertEquals(
                overlap && workers > 1, overlapped > 0, "dependent transactions overlapped " + overlapped + " times");
    }

    /** Runs one workload and checks it. */
    private static Outcome run(long seed, int workers, boolean overlap) throws Exception {
        Workload workload = RandomWorkload.generate(seed, TRANSACTIONS);
        List<Commit> expected = FakeDatabase.serialRun(workload.transactions());
        FakeDatabase db = new FakeDatabase();
        RecordingListener listener = new RecordingListener();
        // odd seeds keep a tiny dependency history, so it is pruned and cleared while transactions run
        SchedulerSettings settings = new SchedulerSettings(
                Duration.ofMillis(200), 3, seed % 2 == 1 ? 6 : 100_000, "pglane-sink-test", overlap);
        WriteSetBuilder writeSets = SampleTables.writeSets();
        try (ApplyScheduler scheduler =
                new ApplyScheduler(db.newSessions(workers), db, writeSets::of, settings, listener)) {
            long sequence = 0;
            for (SourceTransaction tx : workload.transactions()) {
                assertEquals(++sequence, scheduler.submit(tx));
            }
            assertTrue(scheduler.awaitIdle(Duration.ofSeconds(30)), "seed " + seed + " did not finish");
            scheduler.checkFailure();
            assertEquals(TRANSACTIONS, scheduler.committedSequence());
            assertEquals(0, scheduler.inFlight());
        }
        String where = "seed " + seed + ", " + workers + " workers";
        FakeDatabase.assertSameHistory(expected, db.commits());
        assertEquals(LongStream.rangeClosed(1, TRANSACTIONS).boxed().toList(), listener.committedSequences(), where);
        assertTrue(db.allSessionsClosed(), where + ": close() left sessions open");
        if (!overlap) {
            assertEquals(List.of(), listener.startedAhead(), where);
            assertEquals(0, db.lockWaits(), where + ": a transaction waited for a lock of another");
            assertEquals(List.of(), listener.retries(), where);
            db.assertNoConflictingOverlap(workload.barriers());
            return new Outcome(db.maxOpen(), 0);
        }
        List<Long> order =
                workload.transactions().stream().map(SourceTransaction::xid).toList();
        int overlapped = db.assertOverlapOnlyAfterApplied(order, workload.barriers());
        assertTrue(overlapped == 0 || !listener.startedAhead().isEmpty(), where + ": overlap not reported");
        assertTrue(
                listener.ranAhead().size() <= listener.startedAhead().size(),
                where + ": more re-runs than early starts");
        return new Outcome(db.maxOpen(), overlapped);
    }
}
