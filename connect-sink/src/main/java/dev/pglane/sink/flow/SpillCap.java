package dev.pglane.sink.flow;

import java.time.Duration;
import java.util.function.LongSupplier;

/**
 * When the spill files reach spill.max.bytes, and when they are back under it. Reached above the cap, it
 * clears below half of it, so that pausing and resuming do not alternate on every put(). While it is
 * reached the task pauses every partition the next transaction in commit order does not wait for
 * ({@link PartitionFlow}); the awaited ones keep flowing, since only that transaction's completion (and
 * apply) frees spill files for sure, however large it is.
 *
 * <p>Every time the cap is reached is reported; a warning at most once a minute, so a sink that hovers
 * at the cap does not flood its log (the next warning says how many went unlogged), and the clearing of a
 * warned episode too.
 */
public final class SpillCap {
    public static final Duration WARN_INTERVAL = Duration.ofMinutes(1);

    /** Where the cap's transitions go: metrics and the log. */
    public interface Listener {
        /**
         * The spill files hold {@code bytes}, more than {@code maxBytes}.
         *
         * @param warn whether to log a warning: false while one was logged less than a minute ago
         * @param unwarned times the cap was reached without a warning since the last one
         */
        void spillCapReached(long bytes, long maxBytes, boolean warn, int unwarned);

        /** Back below half the cap; {@code warned} tells whether the episode was warned of. */
        void spillCapCleared(long bytes, long maxBytes, boolean warned);
    }

    private final long maxBytes;
    private final Listener listener;
    private final LongSupplier nanoTime;
    private boolean reached;
    private boolean warned;
    private boolean everWarned;
    private long lastWarning;
    private int unwarned;

    public SpillCap(long maxBytes, Listener listener) {
        this(maxBytes, listener, System::nanoTime);
    }

    /** For testing: {@code nanoTime} is the clock of the warnings' rate limit. */
    SpillCap(long maxBytes, Listener listener, LongSupplier nanoTime) {
        this.maxBytes = maxBytes;
        this.listener = listener;
        this.nanoTime = nanoTime;
    }

    /**
     * @param bytes the spill files' bytes now
     * @return whether the cap is reached
     */
    public boolean update(long bytes) {
        if (!reached && bytes > maxBytes) {
            reached = true;
            long now = nanoTime.getAsLong();
            warned = !everWarned || now - lastWarning >= WARN_INTERVAL.toNanos();
            listener.spillCapReached(bytes, maxBytes, warned, warned ? unwarned : unwarned + 1);
            if (warned) {
                everWarned = true;
                lastWarning = now;
                unwarned = 0;
            } else {
                unwarned++;
            }
        } else if (reached && bytes < maxBytes / 2) {
            reached = false;
            listener.spillCapCleared(bytes, maxBytes, warned);
        }
        return reached;
    }
}
