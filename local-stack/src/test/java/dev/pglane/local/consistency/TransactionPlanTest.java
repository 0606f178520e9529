package dev.pglane.local.consistency;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.pglane.local.consistency.TransactionPlan.Operation;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.HashSet;
import java.util.List;
import java.util.Random;
import java.util.Set;
import java.util.stream.LongStream;
import org.junit.jupiter.api.Test;

class TransactionPlanTest {
    private static final int DRAWS = 20_000;

    @Test
    void theSeedDecidesEveryPlan() {
        assertEquals(plans(42, DRAWS), plans(42, DRAWS));
        assertNotEquals(plans(42, 50), plans(43, 50));
    }

    @Test
    void everyOperationComesUpAndTheRatesAreTheIntendedOnes() {
        List<TransactionPlan> plans = plans(7, DRAWS);
        Set<Operation> seen = EnumSet.noneOf(Operation.class);
        plans.forEach(plan -> plan.steps().forEach(step -> seen.add(step.operation())));
        assertEquals(EnumSet.allOf(Operation.class), seen);

        assertRate(plans.stream().filter(TransactionPlan::clockTick).count(), 1.0 / 5, "clock ticks");
        assertRate(plans.stream().filter(TransactionPlan::rolledBack).count(), 1.0 / 20, "rolled back on purpose");
        assertRate(
                plans.stream()
                        .filter(p -> p.steps().get(0).operation() == Operation.LARGE_GROUP)
                        .count(),
                1.0 / TransactionPlan.LARGE_EVERY,
                "large transactions");
        long savepoints = plans.stream()
                .flatMap(p -> p.steps().stream())
                .filter(TransactionPlan.Step::inRolledBackSavepoint)
                .count();
        assertTrue(savepoints > DRAWS / 10, "steps in rolled-back savepoints: " + savepoints);
    }

    @Test
    void everySessionHasItsLargeTransactionsAtItsOwnTime() {
        Set<Long> firsts = new HashSet<>();
        for (int session = 0; session < 6; session++) {
            int s = session;
            long first = LongStream.range(0, TransactionPlan.LARGE_EVERY)
                    .filter(i -> TransactionPlan.isLarge(s, i))
                    .findFirst()
                    .orElseThrow();
            firsts.add(first);
            assertTrue(TransactionPlan.isLarge(session, first + TransactionPlan.LARGE_EVERY));
            assertEquals(
                    1,
                    LongStream.range(first + 1, first + TransactionPlan.LARGE_EVERY + 1)
                            .filter(i -> TransactionPlan.isLarge(s, i))
                            .count());
        }
        assertEquals(6, firsts.size(), "six sessions, six different moments: " + firsts);
    }

    @Test
    void theLogRowNamesTheStepsAndTheSavepointsRolledBack() {
        TransactionPlan plan = new TransactionPlan(
                List.of(
                        new TransactionPlan.Step(Operation.TRANSFER, false),
                        new TransactionPlan.Step(Operation.DOC, true)),
                false,
                false);
        assertEquals("TRANSFER,DOC(rolled back)", plan.describe());
    }

    private static List<TransactionPlan> plans(long seed, int count) {
        Random random = new Random(seed);
        List<TransactionPlan> plans = new ArrayList<>();
        for (int i = 0; i < count; i++) {
            plans.add(TransactionPlan.draw(random, TransactionPlan.isLarge(0, i)));
        }
        return plans;
    }

    /** Within a third of the expected count either way: loose enough for any seed, tight enough to catch a typo. */
    private static void assertRate(long count, double rate, String what) {
        double expected = DRAWS * rate;
        assertTrue(
                Math.abs(count - expected) < expected / 3,
                what + ": " + count + " of " + DRAWS + ", expected ~" + expected);
    }
}
