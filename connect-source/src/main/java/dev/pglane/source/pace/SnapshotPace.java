package dev.pglane.source.pace;

/** Whether the snapshot may start its next chunk now, and why not. */
public interface SnapshotPace {
    /** No pace: every chunk starts at once. */
    SnapshotPace NONE = new SnapshotPace() {
        @Override
        public boolean holds(long outstandingRecords) {
            return false;
        }

        @Override
        public String describe() {
            return "no pace";
        }
    };

    /**
     * True while new chunks must wait: what consumes the topics is too far behind, counting {@code outstandingRecords}
     * that chunks already started will add.
     */
    boolean holds(long outstandingRecords);

    /** What the pace waits for, and where it stands, for the log. */
    String describe();
}
