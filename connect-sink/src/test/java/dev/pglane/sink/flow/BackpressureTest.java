package dev.pglane.sink.flow;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

class BackpressureTest {
    private static final long MIB = 1 << 20;

    @Test
    void pausesOnlyWhileReleasedTransactionsCanMakeProgressWithoutInput() {
        Backpressure backpressure = new Backpressure(MIB, 100);
        assertFalse(backpressure.update(0, 5 * MIB), "nothing released: the assembler must keep reading");
        assertTrue(backpressure.update(1, 2 * MIB));
        assertTrue(backpressure.update(1, 2 * MIB));
    }

    @Test
    void resumesWhenTheWorkersCaughtUpEvenIfTheAssemblerHoldsMuch() {
        Backpressure backpressure = new Backpressure(MIB, 100);
        assertTrue(backpressure.update(3, MIB + 1));
        // The assembler holds most of a transaction it cannot complete without more records.
        assertFalse(backpressure.update(0, MIB - 1));
    }

    @Test
    void resumesBelowHalfTheLimitsWhileWorkStillRuns() {
        Backpressure backpressure = new Backpressure(MIB, 100);
        assertTrue(backpressure.update(100, MIB / 4));
        assertTrue(backpressure.update(60, MIB / 4));
        assertTrue(backpressure.update(40, MIB));
        assertFalse(backpressure.update(40, MIB / 4));
    }

    @Test
    void aRewindResumesTooAndAllowsTheNextPause() {
        Backpressure backpressure = new Backpressure(MIB, 10);
        assertTrue(backpressure.update(10, 0));
        backpressure.resumed();
        assertFalse(backpressure.update(5, 0), "below half the limits after the rewind");
        assertTrue(backpressure.update(10, 0));
    }
}
