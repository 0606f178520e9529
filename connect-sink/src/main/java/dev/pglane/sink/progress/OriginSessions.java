package dev.pglane.sink.progress;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;

/**
 * The replication origins in which {@code progress.store=replication_origin} keeps the applied position, one per apply
 * worker ({@code pglane:<sink>:<server>:<n>}): an origin can be bound to one session at a time. A transaction committed
 * by a session bound to an origin carries the origin in its commit record, which is also how a pglane source with
 * {@code origin.filter=none}, or a subscription with {@code origin = none}, on the target tells the sink's changes from
 * local ones and leaves them out.
 *
 * <p>The names are one-to-one with (sink, server, worker) although a sink's name may hold any character, ':' too: the
 * server is a topic prefix ({@code [a-zA-Z0-9._-]}, no ':') and the worker a number, so a name read from its end gives
 * back all three. What must never be used is a bare prefix match: {@code pglane:a:x:} is the prefix of sink {@code a}
 * on server {@code x} and also begins {@code pglane:a:x:s:0}, an origin of sink {@code a:x} on server {@code s}. A
 * sink's origins are therefore found by {@link #OWNED}, the prefix followed by digits only, and the names stay those
 * of earlier versions: an existing deployment keeps its positions without a migration.
 */
public final class OriginSessions {
    /** PostgreSQL's object_in_use, raised when a session binds an origin that another session holds. */
    private static final String OBJECT_IN_USE = "55006";

    /**
     * The condition on {@code pg_replication_origin.roname} that holds for exactly the origins whose name is the
     * prefix bound to both of its parameters followed by a worker number.
     */
    static final String OWNED = "pg_catalog.starts_with(roname, ?)"
            + " AND pg_catalog.substr(roname, pg_catalog.length(?) + 1) OPERATOR(pg_catalog.~) '^[0-9]+$'";

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

    /** Binds {@code prefix} to the two parameters of {@link #OWNED}, from parameter {@code first} on. */
    static void bindOwned(PreparedStatement st, int first, String prefix) throws SQLException {
        st.setString(first, prefix);
        st.setString(first + 1, prefix);
    }

    /** The names of the origins of sink {@code sinkName} applying {@code sourceServer}'s changes, in order. */
    public static List<String> originsOf(Connection connection, String sinkName, String sourceServer)
            throws SQLException {
        List<String> origins = new ArrayList<>();
        try (PreparedStatement st = connection.prepareStatement(
                "SELECT roname FROM pg_catalog.pg_replication_origin WHERE " + OWNED + " ORDER BY roname")) {
            bindOwned(st, 1, prefix(sinkName, sourceServer));
            try (ResultSet rs = st.executeQuery()) {
                while (rs.next()) {
                    origins.add(rs.getString(1));
                }
            }
        }
        return origins;
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
