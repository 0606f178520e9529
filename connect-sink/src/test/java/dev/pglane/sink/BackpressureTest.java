package dev.pglane.sink;

import static dev.pglane.sink.Backpressure.Change.NONE;
import static dev.pglane.sink.Backpressure.Change.PAUSE;
import static dev.pglane.sink.Backpressure.Change.RESUME;
import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.api.Test;

class BackpressureTest {
    private static final long MIB = 1 << 20;

    @Test
    void pausesOnlyWhileReleasedTransactionsCanMakeProgressWithoutInput() {
        Backpressure backpressure = new Backpressure(MIB, 100);
        assertEquals(NONE, backpressure.update(0, 5 * MIB), "nothing released: the assembler must keep reading");
        assertEquals(PAUSE, backpressure.update(1, 2 * MIB));
        assertEquals(NONE, backpressure.update(1, 2 * MIB));
    }

    @Test
    void resumesWhenTheWorkersCaughtUpEvenIfTheAssemblerHoldsMuch() {
        Backpressure backpressure = new Backpressure(MIB, 100);
        assertEquals(PAUSE, backpressure.update(3, MIB + 1));
        // The assembler holds most of a transaction it cannot complete without more records.
        assertEquals(RESUME, backpressure.update(0, MIB - 1));
    }

    @Test
    void resumesBelowHalfTheLimitsWhileWorkStillRuns() {
        Backpressure backpressure = new Backpressure(MIB, 100);
        assertEquals(PAUSE, backpressure.update(100, MIB / 4));
        assertEquals(NONE, backpressure.update(60, MIB / 4));
        assertEquals(NONE, backpressure.update(40, MIB));
        assertEquals(RESUME, backpressure.update(40, MIB / 4));
    }

    @Test
    void aRewindResumesTooAndAllowsTheNextPause() {
        Backpressure backpressure = new Backpressure(MIB, 10);
        assertEquals(PAUSE, backpressure.update(10, 0));
        backpressure.resumed();
        assertEquals(PAUSE, backpressure.update(10, 0));
    }
}
