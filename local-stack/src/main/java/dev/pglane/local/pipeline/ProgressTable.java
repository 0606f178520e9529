package dev.pglane.local.pipeline;

import dev.pglane.wire.Lsn;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;

/**
 * Reads a sink's row of its progress table ({@code sink_name, source_server, end_lsn, commit_ts, xid}) on the
 * target, the way an operator would watch it.
 */
public final class ProgressTable implements AutoCloseable {
    private static final String UNDEFINED_TABLE = "42P01";

    private final Connection target;
    private final String table;
    private final String sinkName;

    private ProgressTable(Connection target, String table, String sinkName) {
        this.target = target;
        this.table = table;
        this.sinkName = sinkName;
    }

    /** Opens a session on the target; {@code table} as the sink's {@code progress.table} names it. */
    public static ProgressTable open(String targetJdbcUrl, String table, String sinkName) throws SQLException {
        return new ProgressTable(DriverManager.getConnection(targetJdbcUrl), table, sinkName);
    }

    /** The sink's current progress; {@link Progress#NONE} before it has applied anything (or made the table). */
    public Progress read() throws SQLException {
        // one row per source server the sink applies; before its first transaction a row holds 0/0 and no time
        String sql = "SELECT end_lsn::text, commit_ts, xid, clock_timestamp() FROM " + table
                + " WHERE sink_name = ? AND end_lsn > '0/0' ORDER BY end_lsn DESC LIMIT 1";
        try (PreparedStatement query = target.prepareStatement(sql)) {
            query.setString(1, sinkName);
            try (ResultSet rs = query.executeQuery()) {
                if (!rs.next()) {
                    return Progress.NONE;
                }
                return new Progress(
                        Lsn.parse(rs.getString(1)),
                        rs.getTimestamp(2).toInstant(),
                        rs.getLong(3),
                        rs.getTimestamp(4).toInstant());
            }
        } catch (SQLException e) {
            if (UNDEFINED_TABLE.equals(e.getSQLState())) {
                return Progress.NONE;
            }
            throw e;
        }
    }

    @Override
    public void close() throws SQLException {
        target.close();
    }
}
