package dev.pglane.source.snapshot;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.pglane.source.pace.SnapshotPace;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;

class PaceHoldTest {
    private final AtomicBoolean behind = new AtomicBoolean();
    private final AtomicLong nanos = new AtomicLong(1_000);
    private final SnapshotPace pace = new SnapshotPace() {
        @Override
        public boolean holds(long outstandingRecords) {
            return behind.get();
        }

        @Override
        public String describe() {
            return "the sink is behind";
        }
    };

    @Test
    void countsTheTimeNewChunksWaitedWhileThePaceHeldThem() {
        PaceHold hold = new PaceHold("src", pace, nanos::get);
        assertFalse(hold.holds("s1", 0));

        behind.set(true);
        assertTrue(hold.holds("s1", 0));
        nanos.addAndGet(300_000_000);
        assertTrue(hold.holds("s1", 0));
        assertEquals(300, hold.heldMillis(), "the wait under way counts");
        behind.set(false);
        nanos.addAndGet(200_000_000);
        assertFalse(hold.holds("s1", 0));
        nanos.addAndGet(5_000_000_000L);
        behind.set(true);
        assertTrue(hold.holds("s1", 0));
        nanos.addAndGet(100_000_000);

        assertEquals(600, hold.heldMillis(), "500 ms, then 100 ms; not the time between");
    }

    @Test
    void noPaceNeverHolds() {
        PaceHold hold = new PaceHold("src", SnapshotPace.NONE, nanos::get);

        assertFalse(hold.holds("s1", 0));
        assertEquals(0, hold.heldMillis());
    }
}
