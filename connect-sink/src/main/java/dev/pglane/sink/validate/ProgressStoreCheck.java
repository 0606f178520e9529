package dev.pglane.sink.validate;

import static dev.pglane.sink.PgSinkConfig.PROGRESS_STORE;
import static dev.pglane.sink.PgSinkConfig.PROGRESS_TABLE;

import dev.pglane.connect.database.DatabaseEndpoint;
import dev.pglane.connect.validate.ConfigProblem;
import dev.pglane.connect.validate.ServerCheck;
import dev.pglane.sink.ProgressStore;
import dev.pglane.sink.TableName;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;

/** Whether the role can record progress where {@code progress.store} says. */
final class ProgressStoreCheck implements ServerCheck {
    private final ProgressStore store;
    private final TableName table;
    private final DatabaseEndpoint endpoint;

    ProgressStoreCheck(ProgressStore store, TableName table, DatabaseEndpoint endpoint) {
        this.store = store;
        this.table = table;
        this.endpoint = endpoint;
    }

    @Override
    public void run(Connection connection, List<ConfigProblem> problems) throws SQLException {
        if (store == ProgressStore.REPLICATION_ORIGIN) {
            checkOrigins(connection, problems);
        } else {
            checkTable(connection, problems);
        }
    }

    /** PostgreSQL revokes EXECUTE on these functions from PUBLIC; superusers pass has_function_privilege. */
    private void checkOrigins(Connection connection, List<ConfigProblem> problems) throws SQLException {
        List<String> denied = new ArrayList<>();
        try (Statement st = connection.createStatement();
                ResultSet rs = st.executeQuery("SELECT p.oid::regprocedure::text FROM pg_proc p"
                        + " WHERE p.proname LIKE 'pg\\_replication\\_origin\\_%'"
                        + " AND NOT has_function_privilege(p.oid, 'EXECUTE') ORDER BY 1")) {
            while (rs.next()) {
                denied.add(rs.getString(1));
            }
        }
        if (!denied.isEmpty()) {
            problems.add(new ConfigProblem(
                    PROGRESS_STORE,
                    "Role '" + endpoint.user() + "' may not use replication origins: it lacks EXECUTE on "
                            + String.join(", ", denied) + "; grant it (GRANT EXECUTE ON FUNCTION ...), use a"
                            + " superuser, or set " + PROGRESS_STORE + "=table"));
        }
    }

    private void checkTable(Connection connection, List<ConfigProblem> problems) throws SQLException {
        String sql = "SELECT has_schema_privilege(n.oid, 'CREATE'),"
                + " has_table_privilege(c.oid, 'SELECT, INSERT, UPDATE'), c.oid IS NOT NULL"
                + " FROM pg_namespace n LEFT JOIN pg_class c ON c.relnamespace = n.oid AND c.relname = ?"
                + " WHERE n.nspname = ?";
        try (PreparedStatement st = connection.prepareStatement(sql)) {
            st.setString(1, table.table());
            st.setString(2, table.schema());
            try (ResultSet rs = st.executeQuery()) {
                String prefix = PROGRESS_TABLE + " '" + table + "': ";
                if (!rs.next()) {
                    problems.add(new ConfigProblem(
                            PROGRESS_TABLE,
                            prefix + "schema '" + table.schema() + "' does not exist in database '"
                                    + endpoint.database() + "'"));
                } else if (rs.getBoolean(3) && !rs.getBoolean(2)) {
                    problems.add(new ConfigProblem(
                            PROGRESS_TABLE,
                            prefix + "role '" + endpoint.user() + "' needs SELECT, INSERT and UPDATE on it"));
                } else if (!rs.getBoolean(3) && !rs.getBoolean(1)) {
                    problems.add(new ConfigProblem(
                            PROGRESS_TABLE,
                            prefix + "role '" + endpoint.user() + "' may not create it: it needs CREATE on schema "
                                    + table.schema()));
                }
            }
        }
    }
}
