package dev.pglane.sink.progress;

import dev.pglane.sink.admit.NeighbourSinks;
import java.sql.Connection;
import java.sql.SQLException;

/**
 * Where the sink keeps its applied position in the target, written in the same database transaction
 * as the applied changes so the two can never disagree.
 */
public interface ProgressLog {

    /** Creates what the store needs (table, origins) if missing; run once at task start. */
    void prepare(Connection connection) throws SQLException;

    /**
     * Takes the stored position over for this instance of the task and returns it, or {@link AppliedPosition#NONE}.
     * From then on an earlier instance (a zombie of an earlier assignment, on a worker cut off from its group) can
     * record nothing: its next {@link #recordAndCommit} fails, whatever position it has reached. Run it once the apply
     * sessions are {@link #setUpSession set up}: a store whose sessions wait for a zombie's to end must read the
     * position after that.
     */
    AppliedPosition claim(Connection connection) throws SQLException;

    /** Prepares apply worker {@code worker}'s session (e.g. binds its replication origin). */
    void setUpSession(Connection connection, int worker) throws SQLException;

    /**
     * Records {@code position} in the connection's open transaction and commits it, in one round trip:
     * this is the part of a transaction that runs on its commit turn, which every later transaction waits
     * for. If recording fails, nothing is committed.
     */
    void recordAndCommit(Connection connection, AppliedPosition position) throws SQLException;

    /** The other sinks this store records for the same source, with their table groups; unknown by default. */
    default NeighbourSinks neighbours(Connection connection) throws SQLException {
        return NeighbourSinks.UNKNOWN;
    }
}
