package dev.pglane.sink.progress;

import java.sql.Connection;
import java.sql.SQLException;

/**
 * The replication origins that merely mark the sinks' commits as replicated ({@code apply.origin} with the progress
 * table): one pool per target, {@code pglane:apply:0}, {@code pglane:apply:1}, ..., shared by every pglane sink that
 * applies to it. A session binds the first one no other session holds, creating it if needed. PostgreSQL keeps a
 * replication state, one of {@code max_replication_slots} ({@code max_active_replication_origins} from 18 on), for
 * every origin ever bound until it is dropped; a pool takes only as many as sessions have applied at once, where
 * origins named per sink would take more with every sink created and deleted. Which origin a commit carries does not
 * matter to a filter ({@code origin.filter=none}, a subscription's {@code origin = none}): that it carries one does.
 */
final class OriginPool {
    static final String PREFIX = "pglane:apply:";
    /** More sessions than this applying to one target at once is far beyond what its server's state slots allow. */
    private static final int MAX = 1024;
    /** A concurrent session created the same origin first. */
    private static final String UNIQUE_VIOLATION = "23505";
    /** The server has no replication state slot left for another origin. */
    private static final String CONFIGURATION_LIMIT_EXCEEDED = "53400";

    private OriginPool() {}

    /**
     * Binds a free origin of the pool to the session, for its life; returns its name.
     *
     * @throws SQLException if none can be bound, e.g. when the server has no replication state slot left
     */
    static String bindFree(Connection connection) throws SQLException {
        for (int n = 0; n < MAX; n++) {
            String origin = PREFIX + n;
            create(connection, origin);
            try {
                OriginSessions.bind(connection, origin);
                return origin;
            } catch (SQLException e) {
                if (CONFIGURATION_LIMIT_EXCEEDED.equals(e.getSQLState())) {
                    throw new SQLException(
                            e.getMessage() + ". Every apply session of the pglane sinks applying to this server at once"
                                    + " binds a replication origin (apply.origin): raise max_replication_slots"
                                    + " (max_active_replication_origins from PostgreSQL 18 on), lower apply.workers,"
                                    + " or set apply.origin=false",
                            e.getSQLState(),
                            e);
                }
                if (!OriginSessions.heldByAnotherSession(e)) {
                    throw e;
                }
            }
        }
        throw new SQLException("All " + MAX + " replication origins " + PREFIX + "* are held by other sessions");
    }

    private static void create(Connection connection, String origin) throws SQLException {
        try {
            OriginSessions.create(connection, origin);
        } catch (SQLException e) {
            if (!UNIQUE_VIOLATION.equals(e.getSQLState())) {
                throw e;
            }
        }
    }
}
