package dev.pglane.local.soak;

/** {@code [mm:ss]} since a start, for the soak's running log. */
final class Elapsed {
    private Elapsed() {}

    static String since(long startNanos) {
        long seconds = (System.nanoTime() - startNanos) / 1_000_000_000L;
        return String.format("[%02d:%02d]", seconds / 60, seconds % 60);
    }
}
