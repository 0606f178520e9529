package dev.pglane.local.bench;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

@Timeout(value = 10, unit = TimeUnit.SECONDS)
class SinkBenchOptionsTest {
    @Test
    void theDefaultsMeasureFourWorkerCountsAndTheSubscriberOnFortyThousandTransactions() {
        SinkBenchOptions options = SinkBenchOptions.parse(new String[0]);

        assertEquals(List.of(1, 2, 4, 8), options.workers());
        assertTrue(options.nativeSubscriber() && options.pglane());
        assertEquals(3, options.runs());
        assertEquals(8, options.backlog().clients());
        assertEquals(40_000, options.backlog().clients() * options.backlog().transactionsPerClient());
    }

    @Test
    void transactionsAreSharedOutAmongTheClientsRoundedUp() {
        SinkBenchOptions options = SinkBenchOptions.parse(
                new String[] {"--transactions", "1001", "--clients", "4", "--sink-setting", "apply.batch.max.rows=50"});

        assertEquals(251, options.backlog().transactionsPerClient());
        assertEquals(Map.of("apply.batch.max.rows", "50"), options.sinkSettings());
    }

    @Test
    void anEmptyWorkerListLeavesPglaneOutButNotEverything() {
        assertFalse(SinkBenchOptions.parse(new String[] {"--workers", ""}).pglane());
        assertThrows(
                IllegalArgumentException.class,
                () -> SinkBenchOptions.parse(new String[] {"--workers", "", "--no-native"}));
    }
}
