package dev.pglane.sink.schedule;

import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.pglane.sink.assemble.SourceTransaction;
import dev.pglane.sink.schedule.SampleTables.TxBuilder;
import java.time.Duration;

/** An {@link ApplyScheduler} on a {@link FakeDatabase}, with a listener that records what it heard. */
final class SchedulerHarness implements AutoCloseable {
    static final String THREAD_PREFIX = "pglane-sink-test";

    final FakeDatabase db = new FakeDatabase();
    /** Wakes the database's waiters on every sample, so a staged transaction can wait for samples. */
    final RecordingListener listener = new RecordingListener(db::poke);

    final ApplyScheduler scheduler;

    SchedulerHarness(int workers, Duration deadlockCheckInterval, int retryMax) {
        this(workers, deadlockCheckInterval, retryMax, null, false);
    }

    /**
     * @param probe what the deadlock check asks, or {@code null} for the fake database itself
     * @param overlap whether dependent transactions may start once their dependency applied
     */
    SchedulerHarness(int workers, Duration deadlockCheckInterval, int retryMax, BlockingProbe probe, boolean overlap) {
        SchedulerSettings settings =
                new SchedulerSettings(deadlockCheckInterval, retryMax, 1000, THREAD_PREFIX, overlap);
        WriteSetBuilder writeSets = SampleTables.writeSets();
        scheduler = new ApplyScheduler(
                db.newSessions(workers), probe == null ? db : probe, writeSets::of, settings, listener);
    }

    /** A transaction inserting account {@code id}: independent of every other account's. */
    static SourceTransaction insertAccount(long xid, int id) {
        return new TxBuilder(xid)
                .insert("accounts", SampleTables.account(id, null, 0))
                .build();
    }

    void submit(SourceTransaction... transactions) {
        for (SourceTransaction tx : transactions) {
            scheduler.submit(tx);
        }
    }

    void awaitIdle() throws InterruptedException {
        assertTrue(scheduler.awaitIdle(Duration.ofSeconds(20)), "the scheduler did not finish");
    }

    @Override
    public void close() {
        scheduler.close();
    }
}
