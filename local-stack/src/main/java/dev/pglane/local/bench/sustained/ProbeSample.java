package dev.pglane.local.bench.sustained;

/**
 * One probe row of a step: when it committed on the source, counted from the step's start, and how long it took to
 * become visible on the target.
 *
 * @param seen false when the row was not visible when the step was judged: {@code lagSeconds} is then the time it had
 *     waited so far, a lower bound
 */
public record ProbeSample(double committedAtSeconds, double lagSeconds, boolean seen) {}
