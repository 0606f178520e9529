package dev.pglane.sink.flow;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

class SpillCapTest {
    private static final long MAX = 1_000;
    private static final long SECOND = 1_000_000_000L;

    private final List<String> reports = new ArrayList<>();
    private long now = 5 * SECOND;
    private final SpillCap cap = new SpillCap(
            MAX,
            new SpillCap.Listener() {
                @Override
                public void spillCapReached(long bytes, long maxBytes, boolean warn, int unwarned) {
                    reports.add(
                            (warn ? "WARN" : "debug") + " reached " + bytes + (warn ? ", unwarned " + unwarned : ""));
                }

                @Override
                public void spillCapCleared(long bytes, long maxBytes, boolean warned) {
                    reports.add((warned ? "INFO" : "debug") + " cleared " + bytes);
                }
            },
            () -> now);

    @Test
    void reachedAboveTheCapClearedOnlyBelowHalfOfIt() {
        assertFalse(cap.update(MAX), "at the cap is not over it");
        assertTrue(cap.update(MAX + 1));
        assertTrue(cap.update(MAX / 2), "half is not below half");
        assertFalse(cap.update(MAX / 2 - 1));
        assertFalse(cap.update(MAX));
        assertEquals(List.of("WARN reached 1001, unwarned 0", "INFO cleared 499"), reports);
    }

    @Test
    void everyReachIsReportedButWarnedAtMostOncePerInterval() {
        cap.update(2_000);
        cap.update(0);
        now += 30 * SECOND;
        cap.update(2_000);
        cap.update(0);
        cap.update(3_000);
        cap.update(0);
        now += SpillCap.WARN_INTERVAL.toNanos();
        cap.update(4_000);
        cap.update(0);

        assertEquals(
                List.of(
                        "WARN reached 2000, unwarned 0",
                        "INFO cleared 0",
                        "debug reached 2000",
                        "debug cleared 0",
                        "debug reached 3000",
                        "debug cleared 0",
                        "WARN reached 4000, unwarned 2",
                        "INFO cleared 0"),
                reports);
    }

    @Test
    void staysReachedWithoutReportingAgain() {
        cap.update(2_000);
        now += 10 * SpillCap.WARN_INTERVAL.toNanos();
        cap.update(3_000);
        cap.update(900);

        assertEquals(List.of("WARN reached 2000, unwarned 0"), reports);
    }
}
