package dev.pglane.sink.target;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.pglane.connect.logging.LogCapture;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;
import org.slf4j.LoggerFactory;

/** Warnings keyed by record data: once per key, a bounded set of keys, a bounded rate of new ones. */
class WarnOnceTest {
    private final AtomicLong clock = new AtomicLong();
    private final WarnOnce warnings = new WarnOnce(LoggerFactory.getLogger(WarnOnceTest.class), clock::get);

    @Test
    void aKeyIsWarnedOfOnceAndNewKeysAtMostABurstAMinute() {
        try (LogCapture log = LogCapture.start()) {
            assertTrue(warnings.warn("t.a", "column a"));
            assertFalse(warnings.warn("t.a", "column a again"));
            for (int i = 0; i < 100; i++) {
                warnings.warn("t.c" + i, "column c" + i);
            }
            assertEquals(WarnOnce.BURST, log.warnings().size(), log.warnings()::toString);
            clock.addAndGet(61_000_000_000L);
            warnings.warn("t.later", "column later");
            assertTrue(
                    log.warnings().get(WarnOnce.BURST).contains("column later (81 similar warning(s) held back"),
                    log.warnings()::toString);
        }
    }

    @Test
    void theKeysRememberedAreBoundedTheLeastRecentlyWarnedForgottenFirst() {
        warnings.warn("first", "first");
        for (int i = 0; i < WarnOnce.MAX_KEYS; i++) {
            warnings.warn("key" + i, "key" + i);
        }
        assertTrue(warnings.warn("first", "first"), "forgotten, so new again");
        assertFalse(warnings.warn("key" + (WarnOnce.MAX_KEYS - 1), "still remembered"));
    }
}
