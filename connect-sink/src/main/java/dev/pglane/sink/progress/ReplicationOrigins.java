package dev.pglane.sink.progress;

import dev.pglane.wire.Lsn;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Types;

/**
 * Progress in replication origins, as PostgreSQL's own subscriber keeps it: the commit record itself
 * carries the source end LSN, so progress costs no extra row write. Each apply worker has its own
 * origin ({@link OriginSessions}); the applied position is the highest of them, which is correct only
 * because the sink commits in source order — the highest origin position is the last commit, and every
 * earlier one committed before it.
 *
 * <p>PostgreSQL advances a session's origin also when a transaction that called
 * {@code pg_replication_origin_xact_setup} aborts, so {@link #recordAndCommit} sends it together with
 * COMMIT: a transaction rolled back earlier (a retry, a deadlock victim) never recorded anything. Only
 * a COMMIT that itself fails (a deferred constraint) would leave the origin ahead; the sink applies that
 * transaction again at once, but a crash in between would skip it — the progress table has no such gap.
 */
public final class ReplicationOrigins implements ProgressLog {
    private final OriginSessions origins;

    public ReplicationOrigins(String sinkName, String sourceServer, int workers) {
        this.origins = new OriginSessions(sinkName, sourceServer, workers);
    }

    @Override
    public void prepare(Connection connection) throws SQLException {
        origins.create(connection);
    }

    @Override
    public AppliedPosition claim(Connection connection) throws SQLException {
        // Nothing to take over: an earlier instance holds its sessions' origins until it ends, and this instance's
        // sessions wait for them (setUpSession), so once they are bound no zombie can commit any more.
        // The committed position, flushed or not: the caller makes it durable (DurabilityBarrier) before
        // trusting it. Every origin this sink ever used counts, also those of workers a smaller apply.workers dropped.
        String sql =
                "SELECT pg_catalog.max(pg_catalog.pg_replication_origin_progress(roname, false))::text FROM pg_replication_origin"
                        + " WHERE " + OriginSessions.OWNED;
        try (PreparedStatement st = connection.prepareStatement(sql)) {
            OriginSessions.bindOwned(st, 1, origins.prefix());
            try (ResultSet rs = st.executeQuery()) {
                String lsn = rs.next() ? rs.getString(1) : null;
                return lsn == null || !Lsn.parse(lsn).isValid()
                        ? AppliedPosition.NONE
                        : new AppliedPosition(Lsn.parse(lsn), 0L, 0L);
            }
        }
    }

    @Override
    public void setUpSession(Connection connection, int worker) throws SQLException {
        origins.bind(connection, worker);
    }

    @Override
    public void recordAndCommit(Connection connection, AppliedPosition position) throws SQLException {
        String sql =
                "SELECT pg_catalog.pg_replication_origin_xact_setup(?, timestamptz 'epoch' + ? * interval '1 microsecond');"
                        + " COMMIT";
        try (PreparedStatement st = connection.prepareStatement(sql)) {
            st.setObject(1, position.endLsn().toString(), Types.OTHER);
            st.setLong(2, position.commitTsUs());
            st.execute();
        }
    }
}
