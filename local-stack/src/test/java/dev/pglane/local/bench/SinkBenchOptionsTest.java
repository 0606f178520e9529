package dev.pglane.local.bench;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
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
        assertEquals(Workload.PGBENCH, options.workload());
        assertEquals(10, options.backlog().scale(Workload.PGBENCH));
        assertNull(options.targetDelay(), "no proxy unless asked");
    }

    @Test
    void theIndependentWorkloadIsPgbenchDashNAtScaleFiftyUnlessTheScaleIsGiven() {
        SinkBenchOptions options = SinkBenchOptions.parse(new String[] {"--workload", "independent"});

        assertEquals(Workload.INDEPENDENT, options.workload());
        assertEquals(50, options.backlog().scale(Workload.INDEPENDENT));
        assertEquals(
                "independent (pgbench -N, scale 50): pgbench -i -s 50, then -N -c 8 -j 2 -t 5000",
                options.backlog().describe(Workload.INDEPENDENT));
        assertEquals(
                100,
                SinkBenchOptions.parse(new String[] {"--workload", "independent", "--scale", "100"})
                        .backlog()
                        .scale(Workload.INDEPENDENT));
    }

    @Test
    void latencyPutsAProxyOfThatManyMicrosecondsEachWayInFrontOfTheTarget() {
        SinkBenchOptions options = SinkBenchOptions.parse(
                new String[] {"--workload", "independent", "--workers", "1,8", "--latency-us", "500"});

        assertEquals(Duration.ofNanos(500_000), options.targetDelay());
        assertEquals(List.of(1, 8), options.workers());
        assertThrows(IllegalArgumentException.class, () -> SinkBenchOptions.parse(new String[] {"--latency-us", "0"}));
    }

    @Test
    void oneWorkloadAtATime() {
        assertThrows(
                IllegalArgumentException.class,
                () -> SinkBenchOptions.parse(new String[] {"--workload", "pgbench,independent"}));
        assertThrows(IllegalArgumentException.class, () -> SinkBenchOptions.parse(new String[] {"--workload", "both"}));
        assertThrows(IllegalArgumentException.class, () -> SinkBenchOptions.parse(new String[] {"--workload", "tpcc"}));
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
