package dev.pglane.sink.apply;

import dev.pglane.sink.progress.AppliedPosition;
import dev.pglane.sink.progress.ProgressLog;
import dev.pglane.wire.Lsn;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;

/** A minimal progress log for the apply tests: one row per applied transaction in {@code public.applied}. */
final class TableProgressLog implements ProgressLog {
    static final String CREATE_TABLE =
            "CREATE TABLE IF NOT EXISTS public.applied (end_lsn text, commit_ts_us bigint, xid bigint)";

    @Override
    public void prepare(Connection connection) throws SQLException {
        try (Statement st = connection.createStatement()) {
            st.execute(CREATE_TABLE);
        }
    }

    @Override
    public AppliedPosition claim(Connection connection) throws SQLException {
        try (Statement st = connection.createStatement();
                ResultSet rs = st.executeQuery("SELECT end_lsn, commit_ts_us, xid FROM public.applied"
                        + " ORDER BY end_lsn::pg_lsn DESC LIMIT 1")) {
            return rs.next()
                    ? new AppliedPosition(Lsn.parse(rs.getString(1)), rs.getLong(2), rs.getLong(3))
                    : AppliedPosition.NONE;
        }
    }

    @Override
    public void setUpSession(Connection connection, int worker) {}

    @Override
    public void recordAndCommit(Connection connection, AppliedPosition position) throws SQLException {
        try (PreparedStatement st = connection.prepareStatement("INSERT INTO public.applied VALUES (?, ?, ?)")) {
            st.setString(1, position.endLsn().toString());
            st.setLong(2, position.commitTsUs());
            st.setLong(3, position.xid());
            st.executeUpdate();
        }
        connection.commit();
    }
}
