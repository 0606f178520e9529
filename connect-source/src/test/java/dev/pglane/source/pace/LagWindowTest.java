package dev.pglane.source.pace;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Map;
import org.apache.kafka.common.TopicPartition;
import org.junit.jupiter.api.Test;

class LagWindowTest {
    private static final TopicPartition ROWS = new TopicPartition("pglane.public.accounts", 0);
    private static final TopicPartition MARKERS = new TopicPartition("pglane.transactions", 0);
    private static final long SECOND = 1_000_000_000L;

    @Test
    void theRateIsWhatTheGroupCommittedPastOverTheWindow() {
        LagWindow window = new LagWindow();
        window.add(0, Map.of(ROWS, 0L, MARKERS, 0L));
        window.add(SECOND, Map.of(ROWS, 9_000L, MARKERS, 1_000L));
        assertTrue(Double.isNaN(window.rate()), "a second of history gives no rate yet");

        window.add(2 * SECOND, Map.of(ROWS, 18_000L, MARKERS, 2_000L));

        assertEquals(10_000, window.rate(), 1e-9);
    }

    @Test
    void readingsOlderThanTheWindowNoLongerCount() {
        LagWindow window = new LagWindow();
        window.add(0, Map.of(ROWS, 0L));
        // a burst long ago, then 1,000 a second for the last five seconds
        window.add(SECOND, Map.of(ROWS, 100_000L));
        for (int s = 2; s <= 7; s++) {
            window.add(s * SECOND, Map.of(ROWS, 100_000L + (s - 1) * 1_000L));
        }

        assertEquals(1_000, window.rate(), 1e-9);
    }

    @Test
    void aPartitionTheGroupStartsCommittingOnCountsFromItsFirstCommit() {
        LagWindow window = new LagWindow();
        window.add(0, Map.of(ROWS, 1_000L));
        window.add(2 * SECOND, Map.of(ROWS, 3_000L, MARKERS, 700_000L));

        assertEquals(1_000, window.rate(), 1e-9, "the new partition's first offset is no consumption");
    }

    @Test
    void newChunksWaitWhileTheLagOrTheChunksAlreadyStartedAmountToMoreThanTheLimit() {
        assertFalse(LagWindow.holds(9_000, 10_000, 0, 1.0), "0.9 s of lag");
        assertTrue(LagWindow.holds(11_000, 10_000, 0, 1.0), "1.1 s of lag");
        assertTrue(LagWindow.holds(5_000, 10_000, 10_000, 1.0), "a chunk already out takes it to 1.5 s");
        assertTrue(LagWindow.holds(0, 10_000, 50_000, 1.0), "a large chunk out already: the next one waits");
        assertTrue(LagWindow.holds(5_000, Double.NaN, 10_000, 1.0), "no rate yet: one chunk at a time");
        assertFalse(LagWindow.holds(5_000, Double.NaN, 0, 1.0), "no rate yet: one chunk at a time");
        assertFalse(LagWindow.holds(-1, 10_000, 0, 1.0), "the lag unknown: nothing holds");
        assertTrue(LagWindow.holds(1, 0, 0, 1.0), "records left and none consumed: a stalled sink");
        assertFalse(LagWindow.holds(0, 0, 10_000, 1.0), "nothing left and none consumed: an idle sink");
    }
}
