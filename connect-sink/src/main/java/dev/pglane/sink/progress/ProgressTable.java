package dev.pglane.sink.progress;

import dev.pglane.sink.TableName;
import dev.pglane.sink.target.Identifiers;
import dev.pglane.wire.Lsn;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.sql.Types;

/**
 * Progress in a table: one row per (sink name, source server), updated by every applied transaction
 * inside its own commit. Workers write it only on their commit turn, after the previous transaction
 * committed, so they never wait on each other's row lock; the write and the COMMIT share one round trip.
 */
public final class ProgressTable implements ProgressLog {
    private final String table;
    private final String sinkName;
    private final String sourceServer;
    private final String recordAndCommit;

    /**
     * @param table the progress table ({@code progress.table})
     * @param sinkName the connector name
     * @param sourceServer the source's topic prefix, so one sink could follow several sources
     */
    public ProgressTable(TableName table, String sinkName, String sourceServer) {
        this.table = Identifiers.qualified(table);
        this.sinkName = sinkName;
        this.sourceServer = sourceServer;
        // pgjdbc keeps the statement prepared on the server per connection after a few uses.
        this.recordAndCommit = "INSERT INTO " + this.table + " (sink_name, source_server, end_lsn, commit_ts, xid,"
                + " applied_at) VALUES (?, ?, ?, timestamptz 'epoch' + ? * interval '1 microsecond', ?, now())"
                + " ON CONFLICT (sink_name, source_server) DO UPDATE SET end_lsn = excluded.end_lsn,"
                + " commit_ts = excluded.commit_ts, xid = excluded.xid, applied_at = excluded.applied_at; COMMIT";
    }

    @Override
    public void prepare(Connection connection) throws SQLException {
        try (Statement st = connection.createStatement()) {
            st.execute("CREATE TABLE IF NOT EXISTS " + table + " (sink_name text NOT NULL,"
                    + " source_server text NOT NULL, end_lsn pg_lsn NOT NULL, commit_ts timestamptz,"
                    + " xid bigint NOT NULL, applied_at timestamptz NOT NULL DEFAULT now(),"
                    + " PRIMARY KEY (sink_name, source_server))");
        }
        try (PreparedStatement st = connection.prepareStatement("INSERT INTO " + table
                + " (sink_name, source_server, end_lsn, xid) VALUES (?, ?, '0/0', 0) ON CONFLICT DO NOTHING")) {
            st.setString(1, sinkName);
            st.setString(2, sourceServer);
            st.executeUpdate();
        }
    }

    @Override
    public AppliedPosition load(Connection connection) throws SQLException {
        String sql = "SELECT end_lsn::text, (extract(epoch FROM commit_ts) * 1000000)::bigint, xid FROM " + table
                + " WHERE sink_name = ? AND source_server = ?";
        try (PreparedStatement st = connection.prepareStatement(sql)) {
            st.setString(1, sinkName);
            st.setString(2, sourceServer);
            try (ResultSet rs = st.executeQuery()) {
                if (!rs.next()) {
                    return AppliedPosition.NONE;
                }
                Lsn lsn = Lsn.parse(rs.getString(1));
                return lsn.isValid() ? new AppliedPosition(lsn, rs.getLong(2), rs.getLong(3)) : AppliedPosition.NONE;
            }
        }
    }

    @Override
    public void setUpSession(Connection connection, int worker) {
        // A table needs no per-session state.
    }

    /**
     * An upsert, so a progress row deleted while the sink runs comes back with the next commit rather than
     * stopping the sink; pgjdbc sends both statements in one round trip and skips COMMIT if the upsert fails.
     */
    @Override
    public void recordAndCommit(Connection connection, AppliedPosition position) throws SQLException {
        try (PreparedStatement st = connection.prepareStatement(recordAndCommit)) {
            st.setString(1, sinkName);
            st.setString(2, sourceServer);
            st.setObject(3, position.endLsn().toString(), Types.OTHER);
            st.setLong(4, position.commitTsUs());
            st.setLong(5, position.xid());
            st.execute();
        }
    }
}
