package dev.pglane.sink.progress;

import dev.pglane.sink.admit.NeighbourSinks;
import java.sql.Connection;
import java.sql.SQLException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A progress store that keeps the position elsewhere (the progress table) while the apply sessions still write under
 * replication origins ({@code apply.origin}): the origins only mark the sink's commits as replicated, their own
 * progress stays unused. So each session takes a free origin of the target's {@link OriginPool}; a second instance of
 * the task (a zombie) takes others, and the progress table fences whichever instance is behind, as without origins.
 */
public final class OriginTaggedProgress implements ProgressLog {
    private static final Logger log = LoggerFactory.getLogger(OriginTaggedProgress.class);

    private final ProgressLog store;

    public OriginTaggedProgress(ProgressLog store) {
        this.store = store;
    }

    @Override
    public void prepare(Connection connection) throws SQLException {
        store.prepare(connection);
    }

    @Override
    public AppliedPosition claim(Connection connection) throws SQLException {
        return store.claim(connection);
    }

    @Override
    public void setUpSession(Connection connection, int worker) throws SQLException {
        store.setUpSession(connection, worker);
        log.debug("Apply worker {} writes under replication origin {}", worker, OriginPool.bindFree(connection));
    }

    @Override
    public NeighbourSinks neighbours(Connection connection) throws SQLException {
        return store.neighbours(connection);
    }

    @Override
    public void recordAndCommit(Connection connection, AppliedPosition position) throws SQLException {
        store.recordAndCommit(connection, position);
    }
}
