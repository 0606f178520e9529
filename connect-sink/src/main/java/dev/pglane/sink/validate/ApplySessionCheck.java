package dev.pglane.sink.validate;

import dev.pglane.connect.config.DatabaseSettings;
import dev.pglane.connect.database.DatabaseEndpoint;
import dev.pglane.connect.validate.ConfigProblem;
import dev.pglane.connect.validate.ServerCheck;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.List;

/**
 * Whether the role may set {@code session_replication_role = replica}, which the apply sessions
 * need so that triggers and foreign-key checks do not fire twice, as in PostgreSQL's own
 * subscriber. It is a superuser parameter; PostgreSQL 15 made it grantable.
 */
final class ApplySessionCheck implements ServerCheck {
    private static final int GRANTABLE_SINCE = 150_000;

    private final DatabaseEndpoint endpoint;

    ApplySessionCheck(DatabaseEndpoint endpoint) {
        this.endpoint = endpoint;
    }

    @Override
    public void run(Connection connection, List<ConfigProblem> problems) throws SQLException {
        try (Statement st = connection.createStatement();
                ResultSet rs = st.executeQuery(
                        "SELECT r.rolsuper, pg_catalog.quote_ident(r.rolname),"
                                + " pg_catalog.current_setting('server_version_num')::int FROM pg_roles r WHERE r.rolname = current_user")) {
            rs.next();
            if (rs.getBoolean(1)) {
                return;
            }
            String role = rs.getString(2);
            String prefix = "Role '" + endpoint.user() + "' may not set session_replication_role, which the apply"
                    + " sessions set to replica so that triggers and foreign-key checks do not fire twice; ";
            if (rs.getInt(3) < GRANTABLE_SINCE) {
                problems.add(new ConfigProblem(
                        DatabaseSettings.USER,
                        prefix + "before PostgreSQL 15 only a superuser may (ALTER ROLE " + role + " SUPERUSER)"));
            } else if (!maySet(connection)) {
                problems.add(new ConfigProblem(
                        DatabaseSettings.USER,
                        prefix + "GRANT SET ON PARAMETER session_replication_role TO " + role
                                + ", or make the role a superuser"));
            }
        }
    }

    private static boolean maySet(Connection connection) throws SQLException {
        try (Statement st = connection.createStatement();
                ResultSet rs = st.executeQuery(
                        "SELECT pg_catalog.has_parameter_privilege('session_replication_role', 'SET')")) {
            rs.next();
            return rs.getBoolean(1);
        }
    }
}
