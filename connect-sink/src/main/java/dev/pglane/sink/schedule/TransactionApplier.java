package dev.pglane.sink.schedule;

import dev.pglane.sink.assemble.SourceTransaction;
import java.sql.SQLException;

/**
 * One apply worker's database session, as the scheduler drives it. Not thread-safe: one worker
 * thread owns it; only {@link #backendPid()} may be read from another thread.
 */
public interface TransactionApplier extends AutoCloseable {

    /** Applies every change of {@code tx} inside a new, still open database transaction. */
    void apply(SourceTransaction tx) throws SQLException;

    /** Records {@code tx} as the applied position and commits; called only on {@code tx}'s turn. */
    void commit(SourceTransaction tx) throws SQLException;

    /** Rolls back the open database transaction, if any. */
    void rollback() throws SQLException;

    /** The server process id of the session, for the commit-order deadlock check. */
    int backendPid();

    @Override
    void close();
}
