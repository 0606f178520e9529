package dev.pglane.local.consistency;

import java.util.ArrayList;
import java.util.List;
import java.util.Random;

/**
 * What one transaction of a {@link ConsistencySession} will do, drawn from the session's seeded random source before
 * it starts: its steps, whether it takes a clock tick, whether the client rolls it back on purpose. The same seed
 * draws the same plans, which is what makes a run reproducible as far as the sessions' choices go.
 *
 * @param steps one to three steps, in order
 * @param clockTick whether the transaction advances the hot {@code clock} row (about one in five)
 * @param rolledBack whether the client rolls the whole transaction back instead of committing (one in twenty)
 */
record TransactionPlan(List<Step> steps, boolean clockTick, boolean rolledBack) {
    /** One in this many transactions of a session is a large one (an atomic group of several MB). */
    static final int LARGE_EVERY = 400;
    /** How far apart the sessions' large transactions are, so that they do not all come at once. */
    private static final int LARGE_STAGGER = 67;
    /** One in this many transactions also empties {@code scratch}. */
    static final int TRUNCATE_EVERY = 60;

    /**
     * @param operation what the step changes
     * @param inRolledBackSavepoint made inside a savepoint that is then rolled back: none of it may reach the target
     */
    record Step(Operation operation, boolean inRolledBackSavepoint) {}

    /** The kinds of step and their weights among the ordinary ones. */
    enum Operation {
        TRANSFER(30),
        GROUP_CREATE(12),
        GROUP_RESIZE(8),
        GROUP_MOVE(4),
        GROUP_DELETE(4),
        DOC(8),
        TYPED(8),
        COMPOSITE(10),
        NOKEY(6),
        /** Drawn one in {@value #TRUNCATE_EVERY} transactions, never by weight. */
        SCRATCH_TRUNCATE(0),
        /** One in {@value #LARGE_EVERY} transactions of a session (see {@link #isLarge}), never by weight. */
        LARGE_GROUP(0);

        private final int weight;

        Operation(int weight) {
            this.weight = weight;
        }

        private static final int TOTAL_WEIGHT =
                List.of(values()).stream().mapToInt(o -> o.weight).sum();

        static Operation draw(Random random) {
            int roll = random.nextInt(TOTAL_WEIGHT);
            for (Operation operation : values()) {
                roll -= operation.weight;
                if (roll < 0) {
                    return operation;
                }
            }
            throw new AssertionError("weights add up to " + TOTAL_WEIGHT);
        }
    }

    /**
     * Whether the {@code index}-th transaction of {@code session} (from 0) is a large one: one in {@value
     * #LARGE_EVERY}, counted rather than drawn, so that a run of a few hundred transactions per session surely has
     * some (on PostgreSQL 14 only large transactions are streamed), staggered between sessions.
     */
    static boolean isLarge(int session, long index) {
        return (index + (long) session * LARGE_STAGGER) % LARGE_EVERY == LARGE_EVERY - 1;
    }

    /** Draws the next plan; the choices follow from {@code random}'s seed alone. */
    static TransactionPlan draw(Random random, boolean large) {
        List<Step> steps = new ArrayList<>();
        if (large) {
            steps.add(new Step(Operation.LARGE_GROUP, false));
        }
        for (int i = 1 + random.nextInt(3); i > 0; i--) {
            steps.add(new Step(Operation.draw(random), random.nextInt(10) == 0));
        }
        if (random.nextInt(TRUNCATE_EVERY) == 0) {
            steps.add(new Step(Operation.SCRATCH_TRUNCATE, false));
        }
        boolean clockTick = random.nextInt(5) == 0;
        boolean rolledBack = random.nextInt(20) == 0;
        return new TransactionPlan(List.copyOf(steps), clockTick, rolledBack);
    }

    /** The steps' names, for the transaction's log row: {@code TRANSFER,DOC(rolled back)}. */
    String describe() {
        List<String> names = new ArrayList<>();
        for (Step step : steps) {
            names.add(step.operation().name() + (step.inRolledBackSavepoint() ? "(rolled back)" : ""));
        }
        return String.join(",", names);
    }
}
