package dev.pglane.local.bench;

/**
 * What one catch-up run measures: PostgreSQL's subscriber, or pglane's sink with a number of apply workers.
 *
 * @param workers {@code apply.workers}; 1 for PostgreSQL's subscriber, which applies with one worker
 */
public record CatchUpConfiguration(String system, int workers) {
    static final CatchUpConfiguration NATIVE = new CatchUpConfiguration(NativeSubscriberRun.SYSTEM, 1);

    static CatchUpConfiguration pglane(int workers) {
        return new CatchUpConfiguration(SinkConnectorRun.SYSTEM, workers);
    }

    public boolean isNative() {
        return system.equals(NativeSubscriberRun.SYSTEM);
    }

    /** For people, e.g. {@code pglane, 4 workers}. */
    public String label() {
        return isNative() ? "PostgreSQL subscriber" : system + ", " + workers + (workers == 1 ? " worker" : " workers");
    }

    /** The target database of this configuration's run {@code run}. */
    String database(int run) {
        return "run" + run + "_" + (isNative() ? "native" : "pglane_w" + workers);
    }
}
