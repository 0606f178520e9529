package dev.pglane.source.validate;

import dev.pglane.connect.config.DatabaseSettings;
import dev.pglane.connect.database.DatabaseEndpoint;
import dev.pglane.connect.validate.ConfigProblem;
import dev.pglane.connect.validate.ServerCheck;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.List;

/** Whether the server writes logical WAL and the role may open a replication connection. */
final class LogicalReplicationCheck implements ServerCheck {
    private final DatabaseEndpoint endpoint;

    LogicalReplicationCheck(DatabaseEndpoint endpoint) {
        this.endpoint = endpoint;
    }

    @Override
    public void run(Connection connection, List<ConfigProblem> problems) throws SQLException {
        try (Statement st = connection.createStatement();
                ResultSet rs = st.executeQuery(
                        "SELECT pg_catalog.current_setting('wal_level'), r.rolreplication OR r.rolsuper,"
                                + " pg_catalog.quote_ident(r.rolname) FROM pg_roles r WHERE r.rolname = current_user")) {
            rs.next();
            String walLevel = rs.getString(1);
            if (!"logical".equals(walLevel)) {
                problems.add(new ConfigProblem(
                        DatabaseSettings.HOST,
                        "wal_level is '" + walLevel + "' on " + endpoint.address()
                                + "; the source needs wal_level=logical (set it in postgresql.conf and restart"
                                + " the server)"));
            }
            if (!rs.getBoolean(2)) {
                problems.add(new ConfigProblem(
                        DatabaseSettings.USER,
                        "Role '" + endpoint.user() + "' needs the REPLICATION attribute (ALTER ROLE " + rs.getString(3)
                                + " REPLICATION) to read logical replication"));
            }
        }
    }
}
