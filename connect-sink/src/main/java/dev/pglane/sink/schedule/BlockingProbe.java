package dev.pglane.sink.schedule;

import java.sql.SQLException;

/** Finds and cancels the sessions that block an apply worker, for the commit-order deadlock check. */
public interface BlockingProbe {
    int[] blockingPids(int pid) throws SQLException;

    void cancel(int pid) throws SQLException;
}
