package dev.pglane.sink.progress;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The replication origins the apply workers write under, one per worker ({@code pglane:<sink>:<server>:<n>}): an
 * origin can be bound to one session at a time. A transaction committed by a session bound to an origin carries the
 * origin in its commit record, which is how a pglane source with {@code origin.filter=none}, or a subscription with
 * {@code origin = none}, on the target tells the sink's changes from local ones and leaves them out.
 */
public final class OriginSessions {
    /** PostgreSQL's object_in_use, raised when a session binds an origin that another session holds. */
    private static final String OBJECT_IN_USE = "55006";
    /** Spare origins per worker for {@link #bindFree}: as many earlier instances as may still hold one. */
    private static final int SPARES = 4;

    private static final Logger log = LoggerFactory.getLogger(OriginSessions.class);

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

    private static void create(Connection connection, String origin) throws SQLException {
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

    /**
     * Binds an origin no other session holds: worker {@code worker}'s own, or, while an earlier instance of the task
     * holds that one (a zombie, which the progress table fences), a spare named after it. Only where the origins
     * merely mark commits as replicated: their positions are not read.
     */
    void bindFree(Connection connection, int worker) throws SQLException {
        SQLException held = null;
        for (int spare = 0; spare <= SPARES; spare++) {
            String origin = spare == 0 ? originName(worker) : originName(worker) + "." + spare;
            try {
                if (spare > 0) {
                    create(connection, origin);
                }
                bind(connection, origin);
                if (spare > 0) {
                    log.warn(
                            "Apply worker {} writes under the spare replication origin {}: {} is held by another"
                                    + " session, an earlier instance of this task still running",
                            worker,
                            origin,
                            originName(worker));
                }
                return;
            } catch (SQLException e) {
                if (!heldByAnotherSession(e)) {
                    throw e;
                }
                held = e;
            }
        }
        throw held;
    }

    private static void bind(Connection connection, String origin) throws SQLException {
        try (PreparedStatement st =
                connection.prepareStatement("SELECT pg_catalog.pg_replication_origin_session_setup(?)")) {
            st.setString(1, origin);
            st.executeQuery().close();
        }
    }
}
