package dev.pglane.sink.apply;

import dev.pglane.connect.database.DatabaseEndpoint;
import dev.pglane.sink.schedule.BlockingProbe;
import java.sql.Array;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;

/**
 * Asks the target which sessions block an apply worker, and cancels one, for the commit-order
 * deadlock check: a worker waiting for a lock that a later transaction holds would wait forever,
 * since the later one commits only after it. Uses a connection of its own, opened on first use and
 * reopened after a failure; one thread at a time.
 */
public final class BlockingMonitor implements BlockingProbe, AutoCloseable {
    private final DatabaseEndpoint endpoint;
    private final String applicationName;
    private Connection connection;

    public BlockingMonitor(DatabaseEndpoint endpoint, String applicationName) {
        this.endpoint = endpoint;
        this.applicationName = applicationName;
    }

    @Override
    public synchronized int[] blockingPids(int pid) throws SQLException {
        try (PreparedStatement st = connection().prepareStatement("SELECT pg_catalog.pg_blocking_pids(?)")) {
            st.setInt(1, pid);
            try (ResultSet rs = st.executeQuery()) {
                rs.next();
                Array pids = rs.getArray(1);
                Integer[] boxed = (Integer[]) pids.getArray();
                int[] result = new int[boxed.length];
                for (int i = 0; i < boxed.length; i++) {
                    result[i] = boxed[i];
                }
                return result;
            }
        } catch (SQLException e) {
            close();
            throw e;
        }
    }

    @Override
    public synchronized void cancel(int pid) throws SQLException {
        try (PreparedStatement st = connection().prepareStatement("SELECT pg_catalog.pg_cancel_backend(?)")) {
            st.setInt(1, pid);
            st.execute();
        } catch (SQLException e) {
            close();
            throw e;
        }
    }

    /**
     * Names the session by what identifies it, never by its SQL text: the text of another application's statement can
     * hold its literals (a password, personal data), which have no place in the sink's log. The query id is the
     * server's ({@code compute_query_id}, PostgreSQL 14 and later; null where it is off or the role may not see it),
     * read through {@code to_jsonb} so that a server without the column answers too.
     */
    @Override
    public synchronized String describe(int pid) throws SQLException {
        String sql = "SELECT a.application_name, a.usename, a.state, a.backend_type,"
                + " pg_catalog.date_trunc('second', pg_catalog.now() - a.xact_start)::text,"
                + " a.wait_event_type, a.wait_event, pg_catalog.to_jsonb(a) OPERATOR(pg_catalog.->>) 'query_id'"
                + " FROM pg_catalog.pg_stat_activity a WHERE a.pid = ?";
        try (PreparedStatement st = connection().prepareStatement(sql)) {
            st.setInt(1, pid);
            try (ResultSet rs = st.executeQuery()) {
                if (!rs.next()) {
                    return "pid " + pid + " (gone)";
                }
                String wait = rs.getString(6) == null ? "none" : rs.getString(6) + "/" + rs.getString(7);
                String queryId = rs.getString(8) == null ? "not known" : rs.getString(8);
                return "pid " + pid + " (application '" + rs.getString(1) + "', role " + rs.getString(2) + ", "
                        + rs.getString(4) + ", " + rs.getString(3) + ", transaction open for " + rs.getString(5)
                        + ", waiting on " + wait + ", query id " + queryId + ")";
            }
        } catch (SQLException e) {
            close();
            throw e;
        }
    }

    private Connection connection() throws SQLException {
        if (connection == null) {
            connection = endpoint.connect(applicationName);
        }
        return connection;
    }

    @Override
    public synchronized void close() {
        if (connection != null) {
            try {
                connection.close();
            } catch (SQLException ignored) {
                // A broken connection is being dropped; there is nothing to release.
            } finally {
                connection = null;
            }
        }
    }
}
