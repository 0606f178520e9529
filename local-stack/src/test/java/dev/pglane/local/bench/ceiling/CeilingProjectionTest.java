package dev.pglane.local.bench.ceiling;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import dev.pglane.local.bench.ceiling.StageCost.Kind;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

@Timeout(value = 10, unit = TimeUnit.SECONDS)
class CeilingProjectionTest {
    private static final double EXACT = 1e-6;

    /** A source: two serial threads, decoder lanes and a walsender. */
    private static final List<StageCost> SOURCE = List.of(
            new StageCost("reader", Kind.SERIAL, 20),
            new StageCost("task thread", Kind.SERIAL, 40),
            new StageCost("lanes", Kind.PARALLEL, 30),
            new StageCost("walsender", Kind.DATABASE_SERIAL, 25));

    @Test
    void theHeaviestSerialStageCapsWhateverTheCores() {
        // serial: 1e6 / 20 = 50,000 and 1e6 / 40 = 25,000; walsender 1e6 / 25 = 40,000;
        // lanes on 8 - 2 = 6 cores: 6e6 / 30 = 200,000; on 30 cores: 1,000,000
        assertEquals(new Ceiling(8, 25_000, "task thread"), rounded(CeilingProjection.project(SOURCE, 8)));
        assertEquals(new Ceiling(32, 25_000, "task thread"), rounded(CeilingProjection.project(SOURCE, 32)));
    }

    @Test
    void theParallelStagesShareTheCoresTheSerialOnesLeave() {
        List<StageCost> sink = List.of(
                new StageCost("task thread", Kind.SERIAL, 5),
                new StageCost("decode", Kind.PARALLEL, 50),
                new StageCost("workers", Kind.PARALLEL, 150),
                new StageCost("target", Kind.DATABASE_PARALLEL, 100));
        // serial 1e6 / 5 = 200,000; parallel 50 + 150 = 200 µs: on 7 cores 7e6 / 200 = 35,000, on 31 cores 155,000;
        // target on 8 cores 8e6 / 100 = 80,000, on 32 cores 320,000
        assertEquals(
                new Ceiling(8, 35_000, "decode + workers on 7 cores"), rounded(CeilingProjection.project(sink, 8)));
        assertEquals(
                new Ceiling(32, 155_000, "decode + workers on 31 cores"), rounded(CeilingProjection.project(sink, 32)));
    }

    @Test
    void theDatabaseCapsWhenItsBackendsCostMost() {
        List<StageCost> sink = List.of(
                new StageCost("task thread", Kind.SERIAL, 4),
                new StageCost("workers", Kind.PARALLEL, 100),
                new StageCost("target", Kind.DATABASE_PARALLEL, 400));
        // serial 250,000; workers 7e6 / 100 = 70,000 and 31e6 / 100 = 310,000; target 8e6 / 400 = 20,000 and 80,000
        assertEquals(new Ceiling(8, 20_000, "target"), rounded(CeilingProjection.project(sink, 8)));
        assertEquals(new Ceiling(32, 80_000, "target"), rounded(CeilingProjection.project(sink, 32)));
    }

    @Test
    void moreSerialStagesThanCoresLeaveTheParallelOnesNone() {
        // on 2 cores the two serial threads take both: the lanes get 0 cores, so 0 tx/s
        assertEquals(new Ceiling(2, 0, "lanes on 0 cores"), rounded(CeilingProjection.project(SOURCE, 2)));
    }

    @Test
    void whatTheJvmSpendsBesideTheStagesIsShownButNotCounted() {
        List<StageCost> withGc = new ArrayList<>(SOURCE);
        withGc.add(new StageCost("GC and JIT", Kind.BESIDE, 500));

        // as without it: the task thread's 25,000 (GC's 500 µs would bound at 2,000 as a serial stage, and take a core)
        assertEquals(new Ceiling(8, 25_000, "task thread"), rounded(CeilingProjection.project(withGc, 8)));
    }

    @Test
    void stagesThatCostNothingBoundNothing() {
        List<StageCost> idle =
                List.of(new StageCost("reader", Kind.SERIAL, 0), new StageCost("lanes", Kind.PARALLEL, 0));

        Ceiling ceiling = CeilingProjection.project(idle, 8);

        assertEquals(Double.POSITIVE_INFINITY, ceiling.transactionsPerSecond());
        assertEquals("nothing measured", ceiling.cappedBy());
    }

    @Test
    void aStageCostIsItsCpuOverTheTransactions() {
        // 4.4 CPU s over 100,000 transactions: 44 µs each
        assertEquals(44, StageCost.of("task thread", Kind.SERIAL, 4.4, 100_000).microsPerTransaction(), EXACT);
        assertThrows(IllegalArgumentException.class, () -> StageCost.of("task thread", Kind.SERIAL, 1, 0));
        assertThrows(IllegalArgumentException.class, () -> new StageCost("task thread", Kind.SERIAL, -1));
        assertThrows(IllegalArgumentException.class, () -> CeilingProjection.project(SOURCE, 0));
    }

    /** The rate to a thousandth of a transaction per second: the divisions are not exact in binary. */
    private static Ceiling rounded(Ceiling ceiling) {
        return new Ceiling(
                ceiling.cores(), Math.round(ceiling.transactionsPerSecond() * 1000) / 1000.0, ceiling.cappedBy());
    }
}
