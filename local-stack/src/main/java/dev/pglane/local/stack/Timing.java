package dev.pglane.local.stack;

import java.util.Locale;

/** Renders elapsed time the same way in every INFO line of the stack. */
final class Timing {
    private Timing() {}

    /** Seconds since {@code startNanos} (a {@link System#nanoTime()} reading), e.g. {@code 2.4 s}. */
    static String since(long startNanos) {
        return String.format(Locale.ROOT, "%.1f s", (System.nanoTime() - startNanos) / 1e9);
    }
}
