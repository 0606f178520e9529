package dev.pglane.local.bench.sustained;

/**
 * One system replicating the source onto one target database, from {@link Replications#start} until {@link #close},
 * which stops it and removes what it created (connectors, topics, the slot).
 */
interface Replication extends AutoCloseable {
    /** Throws when the system has failed: a failed connector or task, an apply error. */
    void checkHealthy() throws Exception;

    @Override
    void close() throws Exception;
}
