package dev.pglane.local.workload;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;

import org.junit.jupiter.api.Test;

class PacerTest {
    @Test
    void clientsShareTheRate() {
        // 400 a second over 2 clients: each client commits every 5 ms
        assertEquals(5_000_000L, Pacer.share(400, 2).intervalNanos());
        assertEquals(2_500_000L, Pacer.share(400, 1).intervalNanos());
        assertEquals(30_000_000L, Pacer.share(100, 3).intervalNanos());
    }

    @Test
    void noRateIsUnthrottled() throws InterruptedException {
        assertSame(Pacer.unthrottled(), Pacer.share(0, 2));
        assertEquals(0L, Pacer.unthrottled().intervalNanos());
    }

    @Test
    void theFirstTransactionIsDueAtOnce() throws InterruptedException {
        Pacer pacer = Pacer.share(1, 1); // one a second
        long begin = System.nanoTime();
        pacer.awaitNext(); // the first is due at once
        assertEquals(0L, (System.nanoTime() - begin) / 500_000_000L, "the first transaction waited");
    }
}
