package dev.pglane.local.bench.ceiling;

/**
 * A pipeline's projected ceiling on a host of {@code cores} cores ({@link CeilingProjection}).
 *
 * @param transactionsPerSecond the lowest of the stages' bounds; infinite when no stage cost anything
 * @param cappedBy the stage (or the parallel stages together) whose bound that is
 */
public record Ceiling(int cores, double transactionsPerSecond, String cappedBy) {}
