package dev.pglane.sink.flow;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.pglane.connect.logging.LogCapture;
import dev.pglane.sink.assemble.WaitingHead;
import dev.pglane.wire.Lsn;
import java.time.Duration;
import java.util.Optional;
import java.util.Set;
import org.junit.jupiter.api.Test;

class HeadWaitTest {
    private static final long SECOND = 1_000_000_000L;
    private static final Optional<WaitingHead> XID_7 =
            Optional.of(new WaitingHead(7, 1, Lsn.parse("0/700"), Set.of("shop.public.a")));

    @Test
    void aWaitIsMeasuredFromWhenTheHeadFirstWaitedAndWarnedEveryIntervalOfIt() {
        HeadWait wait = new HeadWait(Duration.ofSeconds(10));
        try (LogCapture log = LogCapture.start()) {
            wait.update(XID_7, topic -> true, 0);
            wait.update(XID_7, topic -> true, 9 * SECOND);
            assertEquals(9_000, wait.waitedMs(9 * SECOND));
            assertEquals(0, log.warnings().size(), "not yet");
            wait.update(XID_7, topic -> true, 10 * SECOND);
            wait.update(XID_7, topic -> true, 15 * SECOND);
            wait.update(XID_7, topic -> false, 20 * SECOND);
            assertEquals(2, log.warnings().size(), log.warnings()::toString);
            assertTrue(
                    log.warnings().get(0).contains("partitions are assigned to this sink"), log.warnings()::toString);
            assertTrue(
                    log.warnings().get(1).contains("consumes no partition of [shop.public.a]"),
                    log.warnings()::toString);

            wait.update(Optional.empty(), topic -> true, 21 * SECOND);
            assertEquals(0, wait.waitedMs(21 * SECOND), "applied: nothing waits");
            wait.update(XID_7, topic -> true, 22 * SECOND);
            assertEquals(1_000, wait.waitedMs(23 * SECOND), "a new wait starts over");
        }
    }
}
