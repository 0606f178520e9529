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
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Parallel apply of random workloads must be indistinguishable from applying them one by one: same
 * committed state after every commit, commits in submission order, no two conflicting transactions
 * open at once (no lock ever waited for), each TRUNCATE alone, and yet real parallelism.
 */
@Timeout(120)
class ApplySchedulerPropertyTest {
    private static final int SEEDS = 25;
    private static final int TRANSACTIONS = 120;

    @ParameterizedTest(name = "{0} workers")
    @ValueSource(ints = {1, 2, 4, 8})
    void parallelApplyEqualsSerialApply(int workers) throws Exception {
        int maxOpen = 0;
        for (long seed = 1; seed <= SEEDS; seed++) {
            maxOpen = Math.max(maxOpen, run(seed, workers));
        }
        if (workers > 1) {
            assertTrue(maxOpen > 1, "independent transactions never ran concurrently");
        } else {
            assertEquals(1, maxOpen);
        }
    }

    /** Runs one workload and checks it; returns the most transactions open at once. */
    private static int run(long seed, int workers) throws Exception {
        Workload workload = RandomWorkload.generate(seed, TRANSACTIONS);
        List<Commit> expected = FakeDatabase.serialRun(workload.transactions());
        FakeDatabase db = new FakeDatabase();
        RecordingListener listener = new RecordingListener();
        // odd seeds keep a tiny dependency history, so it is pruned and cleared while transactions run
        SchedulerSettings settings =
                new SchedulerSettings(Duration.ofMillis(200), 3, seed % 2 == 1 ? 6 : 100_000, "pglane-sink-test");
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
        assertEquals(0, db.lockWaits(), where + ": a transaction waited for a lock of another");
        assertEquals(List.of(), listener.retries(), where);
        db.assertNoConflictingOverlap(workload.barriers());
        assertTrue(db.allSessionsClosed(), where + ": close() left sessions open");
        return db.maxOpen();
    }
}
