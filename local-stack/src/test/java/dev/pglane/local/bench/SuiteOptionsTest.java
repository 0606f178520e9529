package dev.pglane.local.bench;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;

import dev.pglane.local.bench.snapshot.SnapshotOptions;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

@Timeout(value = 10, unit = TimeUnit.SECONDS)
class SuiteOptionsTest {
    @Test
    void defaultsAreTheIssuesSizes() {
        SuiteOptions options = SuiteOptions.parse(new String[0]);

        assertEquals(3, options.runs());
        assertEquals(List.of(Workload.PGBENCH, Workload.BULK), options.workloads());
        assertEquals(30_000, options.backlog().transactionsPerClient(), "240,000 over 8 clients");
        assertEquals(10, options.backlog().scale());
        assertEquals(50, options.backlog().scale(Workload.INDEPENDENT));
        assertEquals(10, options.backlog().scale(Workload.BULK), "the bulk backlog sits beside pgbench's tables");
        assertEquals(2_000_000, options.backlog().bulkRows());
        assertEquals(List.of(1, 2, 4, 8), options.workers());
        assertEquals(Path.of("local-stack/target/engine-classpath.txt"), options.engineClasspath());
        assertEquals(
                new SnapshotOptions(100, 1_000_000, List.of(1, 2, 4), 1000),
                options.snapshot(),
                "issue #14's, under half the sustained rate (#36)");
    }

    @Test
    void theIndependentWorkloadJoinsTheOthersByNameOrInAListWithItsOwnScale() {
        assertEquals(
                List.of(Workload.INDEPENDENT),
                SuiteOptions.parse(new String[] {"--workload", "independent"}).workloads());
        SuiteOptions options = SuiteOptions.parse(
                new String[] {"--workload", "pgbench, independent", "--independent-scale", "60", "--latency-us", "500"
                });

        assertEquals(List.of(Workload.PGBENCH, Workload.INDEPENDENT), options.workloads());
        assertEquals(10, options.backlog().scale(Workload.PGBENCH));
        assertEquals(60, options.backlog().scale(Workload.INDEPENDENT));
        assertEquals(Duration.ofNanos(500_000), options.targetDelay());
        assertThrows(
                IllegalArgumentException.class,
                () -> SuiteOptions.parse(new String[] {"--workload", "pgbench,pgbench"}));
    }

    @Test
    void quickShrinksTheDefaultsAndOptionsBesideItWin() {
        SuiteOptions options = SuiteOptions.parse(new String[] {"--quick", "--runs", "2", "--no-engine"});

        assertEquals(2, options.runs());
        assertEquals(500, options.backlog().transactionsPerClient());
        assertEquals(1, options.backlog().scale());
        assertEquals(50_000, options.backlog().bulkRows());
        assertEquals(List.of(1, 4), options.workers());
        assertNull(options.engineClasspath());
        assertEquals(new SnapshotOptions(2, 50_000, List.of(1, 2), 1000), options.snapshot());
    }

    @Test
    void snapshotOptionsBesideQuickWinAndTheStageCanBeLeftOut() {
        SuiteOptions options = SuiteOptions.parse(new String[] {
            "--quick",
            "--snapshot-scale",
            "5",
            "--snapshot-wide-rows",
            "1000",
            "--snapshot-threads",
            "4",
            "--snapshot-rate",
            "50"
        });

        assertEquals(new SnapshotOptions(5, 1000, List.of(4), 50), options.snapshot());
        assertEquals(4, options.snapshot().maxThreads());
        assertNull(SuiteOptions.parse(new String[] {"--no-snapshot"}).snapshot());
        assertThrows(IllegalArgumentException.class, () -> SuiteOptions.parse(new String[] {"--snapshot-threads", ""}));
        assertThrows(IllegalArgumentException.class, () -> SuiteOptions.parse(new String[] {"--snapshot-rate", "0"}));
    }

    @Test
    void formatsAreJsonByDefaultAndBothRunsJsonFirst() {
        assertEquals(Set.of(BenchFormat.JSON), SuiteOptions.parse(new String[0]).formats());
        assertEquals(
                Set.of(BenchFormat.AVRO),
                SuiteOptions.parse(new String[] {"--format", "avro"}).formats());
        assertEquals(
                List.of(BenchFormat.JSON, BenchFormat.AVRO),
                List.copyOf(
                        SuiteOptions.parse(new String[] {"--format", "both"}).formats()));
        assertThrows(IllegalArgumentException.class, () -> SuiteOptions.parse(new String[] {"--format", "xml"}));
        assertEquals("sink_latency_avro", SuiteBench.stageName(DelayedTarget.STAGE, BenchFormat.AVRO));
        assertEquals("sink", SuiteBench.stageName("sink", BenchFormat.JSON));
    }

    @Test
    void aMisspeltOptionIsAnError() {
        assertThrows(IllegalArgumentException.class, () -> SuiteOptions.parse(new String[] {"--quik"}));
    }
}
