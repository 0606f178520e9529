package dev.pglane.local.bench.ceiling;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.stream.Collectors;

/**
 * Projects the rate a pipeline could reach on a bigger host from what each of its stages cost per transaction on
 * this one (CPU from thread times), so that a 2-core machine can speak for 8 or 32 cores. The model:
 *
 * <ul>
 *   <li>a <b>serial</b> stage (one thread of the connector: the source's replication reader, the task thread that
 *       {@code poll()} or {@code put()} runs on) gets a core of its own and bounds the rate at
 *       1,000,000 / its µs per transaction, on any number of cores;
 *   <li>the <b>parallel</b> stages (threads that divide the work: decoder lanes, apply workers) share the cores the
 *       serial stages leave: (cores − serial stages) × 1,000,000 / the sum of their µs per transaction;
 *   <li>the <b>database</b> runs on a host of its own with as many cores: a process that is one per pipeline (the
 *       walsender decoding the source's slot) bounds the rate at 1,000,000 / its µs per transaction, backends that
 *       work at once (the target's apply sessions) at cores × 1,000,000 / their µs per transaction.
 * </ul>
 *
 * The projected ceiling is the lowest of these bounds; the stage with that bound caps it. It is the ceiling that
 * CPU allows, not a promised rate: it assumes the parallel stages scale with their cores (no dependency between
 * transactions, no lock or hand-over wait), that a stage's cost per transaction does not grow with the rate, and it
 * leaves out what the measured JVM runs beside the connector (the broker, the benchmark, garbage collection and the
 * JIT compilers, which thread times cannot split between them: {@link StageCost.Kind#BESIDE}, shown but not counted).
 */
public final class CeilingProjection {
    /** Issue #36's target for each serial stage, per pgbench transaction: a ceiling above 100,000 tx/s. */
    public static final double SERIAL_TARGET_MICROS = 10;

    /** The host sizes the reports project onto. */
    public static final List<Integer> CORES = List.of(8, 32);

    /** The model in one paragraph, for the reports. */
    public static final String MODEL = "Projected ceiling: each serial stage (one thread) on a core of its own"
            + " bounds the rate at 1,000,000 / its µs per transaction; the parallel stages share the cores the serial"
            + " ones leave, (cores − serial stages) × 1,000,000 / their µs per transaction summed; the database on a"
            + " host of its own with as many cores: its one walsender at 1,000,000 / µs, its apply backends at"
            + " cores × 1,000,000 / µs. The ceiling is the lowest bound, and the stage with it caps the pipeline."
            + " CPU's ceiling, not a promise: parallel stages are assumed to scale (no dependency between"
            + " transactions, no lock waits), and the broker, the benchmark, GC and JIT that share the measured JVM"
            + " are left out (GC and JIT are shown beside the stages: thread times cannot split them between the"
            + " connector and the broker).";

    private CeilingProjection() {}

    /** The lowest bound of {@code stages} on {@code cores} cores, and the stage with it. */
    public static Ceiling project(List<StageCost> stages, int cores) {
        if (cores < 1) {
            throw new IllegalArgumentException("a host has at least one core, not " + cores);
        }
        Ceiling lowest = new Ceiling(cores, Double.POSITIVE_INFINITY, "nothing measured");
        for (Ceiling bound : bounds(stages, cores)) {
            if (bound.transactionsPerSecond() < lowest.transactionsPerSecond()) {
                lowest = bound;
            }
        }
        return lowest;
    }

    /** Every stage's bound, the parallel stages' as one; stages that cost nothing bound nothing. */
    private static List<Ceiling> bounds(List<StageCost> stages, int cores) {
        List<Ceiling> bounds = new ArrayList<>();
        List<StageCost> parallel = new ArrayList<>();
        int serialCores = 0;
        for (StageCost stage : stages) {
            if (stage.kind() == StageCost.Kind.BESIDE) {
                continue;
            }
            if (stage.kind() == StageCost.Kind.PARALLEL) {
                parallel.add(stage);
                continue;
            }
            if (stage.kind() == StageCost.Kind.SERIAL) {
                serialCores++;
            }
            // one thread or one process uses one core; the target's backends use every core of their host
            int coresUsed = stage.kind() == StageCost.Kind.DATABASE_PARALLEL ? cores : 1;
            bound(bounds, cores, stage.name(), coresUsed, stage.microsPerTransaction());
        }
        double parallelMicros =
                parallel.stream().mapToDouble(StageCost::microsPerTransaction).sum();
        if (parallelMicros > 0) {
            int left = Math.max(0, cores - serialCores);
            String names = parallel.stream().map(StageCost::name).collect(Collectors.joining(" + "));
            bound(bounds, cores, String.format(Locale.ROOT, "%s on %d cores", names, left), left, parallelMicros);
        }
        return bounds;
    }

    private static void bound(List<Ceiling> bounds, int cores, String name, int coresUsed, double micros) {
        if (micros > 0) {
            bounds.add(new Ceiling(cores, coresUsed * 1e6 / micros, name));
        }
    }
}
