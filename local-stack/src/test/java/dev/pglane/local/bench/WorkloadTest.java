package dev.pglane.local.bench;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

@Timeout(value = 10, unit = TimeUnit.SECONDS)
class WorkloadTest {
    private static final BacklogShape SHAPE =
            new BacklogShape(10, 50, 8, 2, 5000, 500_000, Path.of("/usr/bin/pgbench"));

    @Test
    void theOptionNamesOneWorkloadBothOrAList() {
        assertEquals(List.of(Workload.PGBENCH), Workload.fromOption("pgbench"));
        assertEquals(List.of(Workload.INDEPENDENT), Workload.fromOption("independent"));
        assertEquals(List.of(Workload.PGBENCH, Workload.BULK), Workload.fromOption("both"));
        assertEquals(
                List.of(Workload.INDEPENDENT, Workload.PGBENCH, Workload.BULK),
                Workload.fromOption("independent,pgbench,bulk"));
        assertThrows(IllegalArgumentException.class, () -> Workload.fromOption("tpcc"));
        assertThrows(IllegalArgumentException.class, () -> Workload.fromOption(""));
    }

    @Test
    void anIndependentTransactionIsOneUpdateAndOneInsertWrittenByPgbench() {
        assertEquals(2_000, Workload.INDEPENDENT.changes(1000));
        assertEquals(4_000, Workload.PGBENCH.changes(1000), "TPC-B: three updates and an insert");
        assertEquals(1_000_000, Workload.BULK.changes(1000));
        assertTrue(Workload.INDEPENDENT.isPgbench() && Workload.PGBENCH.isPgbench());
        assertFalse(Workload.BULK.isPgbench());
    }

    @Test
    void eachBacklogHasItsScaleAndSaysWhatPgbenchRan() {
        assertEquals(50, SHAPE.scale(Workload.INDEPENDENT));
        assertEquals(10, SHAPE.scale(Workload.PGBENCH));
        assertEquals(10, SHAPE.scale(Workload.BULK));
        assertEquals("pgbench -i -s 10, then -c 8 -j 2 -t 5000", SHAPE.describe(Workload.PGBENCH));
        assertEquals(
                "independent (pgbench -N, scale 50): pgbench -i -s 50, then -N -c 8 -j 2 -t 5000",
                SHAPE.describe(Workload.INDEPENDENT));
        assertEquals("bulk 500000 rows in 1,000-row transactions", SHAPE.describe(Workload.BULK));
    }
}
