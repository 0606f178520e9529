package dev.pglane.source;

import dev.pglane.connect.database.SqlStateClass;
import java.io.IOException;
import java.sql.SQLException;
import java.util.Set;
import java.util.function.Predicate;

/**
 * Whether a failure means the connection to the server went away, so that a new session after a
 * backoff may succeed: a retriable condition rather than a broken configuration or stream.
 */
public final class ConnectionLoss {
    /**
     * Server shutdown or restart (57P01, 57P02), a server still starting (57P03), and a slot still held
     * by the walsender of the previous session, which exits shortly after its client left (55006).
     */
    private static final String SLOT_IN_USE = "55006";

    private static final Set<String> TRANSIENT_STATES = Set.of("57P01", "57P02", "57P03", SLOT_IN_USE);

    private ConnectionLoss() {}

    /**
     * True if {@code e}, or a cause of it, says another walsender holds the slot (55006): the previous session's, for
     * a moment, or a task instance left behind on a worker that lost its group, until Connect stops it.
     */
    public static boolean slotHeldElsewhere(Throwable e) {
        return anyCause(e, t -> t instanceof SQLException sql && SLOT_IN_USE.equals(sql.getSQLState()));
    }

    /** True if {@code e}, or a cause of it, is a lost or refused connection. */
    public static boolean isLost(Throwable e) {
        return anyCause(
                e,
                t -> t instanceof IOException
                        || (t instanceof SQLException sql
                                && (SqlStateClass.of(sql) == SqlStateClass.CONNECTION
                                        || TRANSIENT_STATES.contains(sql.getSQLState()))));
    }

    private static boolean anyCause(Throwable e, Predicate<Throwable> test) {
        for (Throwable t = e; t != null; t = t.getCause() == t ? null : t.getCause()) {
            if (test.test(t)) {
                return true;
            }
        }
        return false;
    }
}
