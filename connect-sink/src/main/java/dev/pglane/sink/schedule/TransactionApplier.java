package dev.pglane.sink.schedule;

import dev.pglane.sink.assemble.SourceTransaction;
import java.sql.SQLException;

/**
 * One apply worker's database session, as the scheduler drives it. Not thread-safe: one worker
 * thread owns it; only {@link #backendPid()} may be read from another thread.
 */
public interface TransactionApplier extends AutoCloseable {

    /**
     * Applies every change of {@code tx} inside a new, still open database transaction.
     *
     * @param ahead a transaction {@code tx} depends on has applied but not committed: a row it wrote waits on its
     *     lock, but a row it inserted is not visible yet. Any row found otherwise than {@code tx} expects must then
     *     fail the call, never be taken for a conflict: the scheduler applies {@code tx} again after it.
     */
    void apply(SourceTransaction tx, boolean ahead) throws SQLException;

    /** Records {@code tx} as the applied position and commits; called only on {@code tx}'s turn. */
    void commit(SourceTransaction tx) throws SQLException;

    /** Rolls back the open database transaction, if any. */
    void rollback() throws SQLException;

    /** The server process id of the session, for the commit-order deadlock check. */
    int backendPid();

    @Override
    void close();
}
