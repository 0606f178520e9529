package dev.pglane.sink.flow;

/**
 * When the sink task pauses and resumes all its partitions ({@link PartitionFlow} pauses only those
 * that run ahead). While released transactions wait for the
 * workers, nothing new is needed to make progress, so every partition may pause once the held bytes or
 * transactions exceed the limits. When the workers have committed them all, the partitions resume
 * whatever the assembler holds: it may need more records to complete anything, and it never waits for a
 * partition paused here (over its limit it spills instead). Otherwise they resume below half the limits, so
 * that pause and resume do not alternate on every put().
 */
public final class Backpressure {
    private final long maxBytes;
    private final int maxTransactions;
    private boolean paused;

    public Backpressure(long maxBytes, int maxTransactions) {
        this.maxBytes = maxBytes;
        this.maxTransactions = maxTransactions;
    }

    /**
     * @param inFlight released transactions not yet committed
     * @param heldBytes heap bytes held by the assembler and by those transactions
     * @return whether every partition should be paused now
     */
    public boolean update(int inFlight, long heldBytes) {
        boolean over = heldBytes > maxBytes || inFlight >= maxTransactions;
        boolean wellUnder = heldBytes < maxBytes / 2 && inFlight < maxTransactions / 2;
        if (!paused && over && inFlight > 0) {
            paused = true;
        } else if (paused && (inFlight == 0 || wellUnder)) {
            paused = false;
        }
        return paused;
    }

    /** The partitions were resumed by other means (a rewind). */
    public void resumed() {
        paused = false;
    }
}
