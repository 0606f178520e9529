package dev.pglane.sink.validate;

import dev.pglane.connect.validate.ConfigProblem;
import dev.pglane.connect.validate.ServerCheck;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.List;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Warns when the sink applies as a superuser. It works, but then whoever can write a change topic acts with a
 * superuser's reach wherever the sink's own checks have a gap; a role with exactly the privileges docs/security.md lists
 * can only change rows of the tables it was granted. Connect's validation reports only errors, so this is a WARN
 * in the worker's log, at validation and again when a task starts applying.
 */
public final class SuperuserCheck implements ServerCheck {
    private static final Logger log = LoggerFactory.getLogger(SuperuserCheck.class);

    private final String connectorName;

    SuperuserCheck(String connectorName) {
        this.connectorName = connectorName;
    }

    @Override
    public void run(Connection connection, List<ConfigProblem> problems) throws SQLException {
        warnIfSuperuser(connection, connectorName);
    }

    /** Logs the warning if the session's role is a superuser; returns whether it is. */
    public static boolean warnIfSuperuser(Connection connection, String connectorName) throws SQLException {
        try (Statement st = connection.createStatement();
                ResultSet rs = st.executeQuery(
                        "SELECT r.rolsuper, r.rolname FROM pg_catalog.pg_roles r WHERE r.rolname = current_user")) {
            if (rs.next() && rs.getBoolean(1)) {
                log.warn(
                        "pglane sink {} applies as superuser {}: any writer of its change topics then acts with a"
                                + " superuser's reach. Use a role with only the privileges docs/security.md lists"
                                + " (session_replication_role, the target tables, the progress store)",
                        connectorName,
                        rs.getString(2));
                return true;
            }
            return false;
        }
    }
}
