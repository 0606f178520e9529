package dev.pglane.sink.progress;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;

/**
 * The replication origins in which {@code progress.store=replication_origin} keeps the applied position, one per apply
 * worker ({@code pglane:<sink>:<server>:<n>}): an origin can be bound to one session at a time. A transaction committed
 * by a session bound to an origin carries the origin in its commit record, which is also how a pglane source with
 * {@code origin.filter=none}, or a subscription with {@code origin = none}, on the target tells the sink's changes from
 * local ones and leaves them out.
 */
public final class OriginSessions {
    /** PostgreSQL's object_in_use, raised when a session binds an origin that another session holds. */
    private static final String OBJECT_IN_USE = "55006";

    private final String prefix;
    private final int workers;

    OriginSessions(String sinkName, String sourceServer, int workers) {
        this.prefix = prefix(sinkName, sourceServer);
        this.workers = workers;
    }

    /** What the name of every origin of sink {@code sinkName} applying {@code sourceServer}'s changes starts with. */
    public static String prefix(String sinkName, String sourceServer) {
        return "pglane:" + sinkName + ":" + sourceServer + ":";
    }

    /** What every origin of this sink's name starts with, also those of workers a smaller apply.workers dropped. */
    String prefix() {
        return prefix;
    }

    String originName(int worker) {
        return prefix + worker;
    }

    /**
     * True if {@code e} says that another session holds an origin this sink's session tried to bind: an earlier
     * instance of the task, still closing or still running elsewhere.
     */
    public static boolean heldByAnotherSession(SQLException e) {
        return OBJECT_IN_USE.equals(e.getSQLState())
                && String.valueOf(e.getMessage()).contains("replication origin");
    }

    /** Creates the workers' origins that do not exist yet. */
    void create(Connection connection) throws SQLException {
        for (int worker = 0; worker < workers; worker++) {
            create(connection, originName(worker));
        }
    }

    static void create(Connection connection, String origin) throws SQLException {
        String sql = "SELECT pg_catalog.pg_replication_origin_create(?)"
                + " WHERE NOT EXISTS (SELECT 1 FROM pg_replication_origin WHERE roname = ?)";
        try (PreparedStatement st = connection.prepareStatement(sql)) {
            st.setString(1, origin);
            st.setString(2, origin);
            st.executeQuery().close();
        }
    }

    /**
     * Binds worker {@code worker}'s origin to its session, for the session's life.
     *
     * @throws SQLException also when another session holds the origin: a task instance of this sink that still runs
     */
    void bind(Connection connection, int worker) throws SQLException {
        bind(connection, originName(worker));
    }

    static void bind(Connection connection, String origin) throws SQLException {
        try (PreparedStatement st =
                connection.prepareStatement("SELECT pg_catalog.pg_replication_origin_session_setup(?)")) {
            st.setString(1, origin);
            st.executeQuery().close();
        }
    }
}
