package dev.pglane.sink;

/**
 * When the sink task pauses and resumes its partitions. While released transactions wait for the
 * workers, nothing new is needed to make progress, so every partition may pause once the held bytes or
 * transactions exceed the limits. When the workers have committed them all, the partitions resume
 * whatever the assembler holds: it may need more records to complete anything, and it never waits for a
 * paused partition (over its limit it spills instead). Otherwise they resume below half the limits, so
 * that pause and resume do not alternate on every put().
 */
final class Backpressure {
    private final long maxBytes;
    private final int maxTransactions;
    private boolean paused;

    Backpressure(long maxBytes, int maxTransactions) {
        this.maxBytes = maxBytes;
        this.maxTransactions = maxTransactions;
    }

    /** What to do now: the partitions' state changes only on {@link Change#PAUSE} or {@link Change#RESUME}. */
    enum Change {
        PAUSE,
        RESUME,
        NONE
    }

    /**
     * @param inFlight released transactions not yet committed
     * @param heldBytes heap bytes held by the assembler and by those transactions
     */
    Change update(int inFlight, long heldBytes) {
        boolean over = heldBytes > maxBytes || inFlight >= maxTransactions;
        boolean wellUnder = heldBytes < maxBytes / 2 && inFlight < maxTransactions / 2;
        if (!paused && over && inFlight > 0) {
            paused = true;
            return Change.PAUSE;
        }
        if (paused && (inFlight == 0 || wellUnder)) {
            paused = false;
            return Change.RESUME;
        }
        return Change.NONE;
    }

    /** The partitions were resumed by other means (a rewind). */
    void resumed() {
        paused = false;
    }
}
