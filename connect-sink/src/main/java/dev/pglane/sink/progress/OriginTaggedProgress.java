package dev.pglane.sink.progress;

import java.sql.Connection;
import java.sql.SQLException;

/**
 * A progress store that keeps the position elsewhere (the progress table) while the apply sessions still write under
 * replication origins ({@code apply.origin}): the origins only mark the sink's commits as replicated, their own
 * progress stays unused. So a session whose origin another instance of the task still holds takes a spare one, and
 * the progress table fences whichever instance is behind, as without origins.
 */
public final class OriginTaggedProgress implements ProgressLog {
    private final ProgressLog store;
    private final OriginSessions origins;

    public OriginTaggedProgress(ProgressLog store, String sinkName, String sourceServer, int workers) {
        this.store = store;
        this.origins = new OriginSessions(sinkName, sourceServer, workers);
    }

    @Override
    public void prepare(Connection connection) throws SQLException {
        store.prepare(connection);
        origins.create(connection);
    }

    @Override
    public AppliedPosition load(Connection connection) throws SQLException {
        return store.load(connection);
    }

    @Override
    public void setUpSession(Connection connection, int worker) throws SQLException {
        store.setUpSession(connection, worker);
        origins.bindFree(connection, worker);
    }

    @Override
    public void recordAndCommit(Connection connection, AppliedPosition position) throws SQLException {
        store.recordAndCommit(connection, position);
    }
}
