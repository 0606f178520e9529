package dev.pglane.sink.validate;

import static dev.pglane.sink.PgSinkConfig.APPLY_ORIGIN;
import static dev.pglane.sink.PgSinkConfig.PROGRESS_STORE;
import static dev.pglane.sink.PgSinkConfig.PROGRESS_TABLE;

import dev.pglane.connect.database.DatabaseEndpoint;
import dev.pglane.connect.validate.ConfigProblem;
import dev.pglane.connect.validate.ServerCheck;
import dev.pglane.sink.progress.ProgressStore;
import dev.pglane.sink.target.TableName;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;

/** Whether the role can record progress where {@code progress.store} says, and apply under origins if asked to. */
final class ProgressStoreCheck implements ServerCheck {
    /** What applying under origins calls, without keeping progress in them. */
    private static final List<String> TAGGING_FUNCTIONS =
            List.of("pg_replication_origin_create", "pg_replication_origin_session_setup");

    private final ProgressStore store;
    private final TableName table;
    private final boolean applyOrigin;
    private final DatabaseEndpoint endpoint;

    ProgressStoreCheck(ProgressStore store, TableName table, boolean applyOrigin, DatabaseEndpoint endpoint) {
        this.store = store;
        this.table = table;
        this.applyOrigin = applyOrigin;
        this.endpoint = endpoint;
    }

    @Override
    public void run(Connection connection, List<ConfigProblem> problems) throws SQLException {
        if (store == ProgressStore.REPLICATION_ORIGIN) {
            checkOrigins(connection, problems, List.of(), PROGRESS_STORE, PROGRESS_STORE + "=table");
        } else {
            checkTable(connection, problems);
            if (applyOrigin) {
                checkOrigins(
                        connection,
                        problems,
                        TAGGING_FUNCTIONS,
                        APPLY_ORIGIN,
                        APPLY_ORIGIN + "=false (no two-way replication then)");
            }
        }
    }

    /** PostgreSQL revokes EXECUTE on these functions from PUBLIC; superusers pass has_function_privilege. */
    /**
     * @param needed the functions needed, by name; empty: all of them
     */
    private void checkOrigins(
            Connection connection, List<ConfigProblem> problems, List<String> needed, String key, String otherwise)
            throws SQLException {
        List<String> denied = new ArrayList<>();
        try (Statement st = connection.createStatement();
                ResultSet rs = st.executeQuery("SELECT p.oid::regprocedure::text FROM pg_proc p"
                        + " WHERE p.proname LIKE 'pg\\_replication\\_origin\\_%'"
                        + " AND NOT pg_catalog.has_function_privilege(p.oid, 'EXECUTE') ORDER BY 1")) {
            while (rs.next()) {
                String function = rs.getString(1);
                if (needed.isEmpty() || needed.contains(function.substring(0, function.indexOf('(')))) {
                    denied.add(function);
                }
            }
        }
        if (!denied.isEmpty()) {
            problems.add(new ConfigProblem(
                    key,
                    "Role '" + endpoint.user() + "' may not use replication origins: it lacks EXECUTE on "
                            + String.join(", ", denied) + "; grant it (GRANT EXECUTE ON FUNCTION ...), use a"
                            + " superuser, or set " + otherwise));
        }
    }

    private void checkTable(Connection connection, List<ConfigProblem> problems) throws SQLException {
        // has_table_privilege with a list is true if ANY of them is held: each is asked for on its own
        String sql = "SELECT pg_catalog.has_schema_privilege(n.oid, 'CREATE'), c.oid IS NOT NULL,"
                + " pg_catalog.has_table_privilege(c.oid, 'SELECT') AND pg_catalog.has_table_privilege(c.oid, 'INSERT')"
                + " AND pg_catalog.has_table_privilege(c.oid, 'UPDATE'),"
                + " pg_catalog.pg_has_role(c.relowner, 'USAGE'),"
                + " (SELECT pg_catalog.count(*) FROM pg_attribute a WHERE a.attrelid = c.oid AND NOT a.attisdropped"
                + " AND a.attname IN ('source_system_id', 'source_timeline', 'owner_epoch', 'table_group'))"
                + " FROM pg_namespace n LEFT JOIN pg_class c ON c.relnamespace = n.oid AND c.relname = ?"
                + " WHERE n.nspname = ?";
        try (PreparedStatement st = connection.prepareStatement(sql)) {
            st.setString(1, table.table());
            st.setString(2, table.schema());
            try (ResultSet rs = st.executeQuery()) {
                String prefix = PROGRESS_TABLE + " '" + table + "': ";
                String role = "role '" + endpoint.user() + "'";
                if (!rs.next()) {
                    problems.add(new ConfigProblem(
                            PROGRESS_TABLE,
                            prefix + "schema '" + table.schema() + "' does not exist in database '"
                                    + endpoint.database() + "'"));
                } else if (!rs.getBoolean(2)) {
                    if (!rs.getBoolean(1)) {
                        problems.add(new ConfigProblem(
                                PROGRESS_TABLE,
                                prefix + role + " may not create it: it needs CREATE on schema " + table.schema()
                                        + ", or create the table beforehand (see docs/security.md)"));
                    }
                } else if (!rs.getBoolean(3)) {
                    problems.add(new ConfigProblem(
                            PROGRESS_TABLE, prefix + role + " needs SELECT, INSERT and UPDATE on it"));
                } else if (rs.getInt(5) < 4 && !rs.getBoolean(4)) {
                    problems.add(new ConfigProblem(
                            PROGRESS_TABLE,
                            prefix + "it lacks columns of this version (source_system_id, source_timeline,"
                                    + " owner_epoch, table_group), which only its owner can add: run the sink once as"
                                    + " the owner, or add the missing ones with ALTER TABLE " + table
                                    + " ADD COLUMN IF NOT EXISTS source_system_id text, ADD COLUMN IF NOT EXISTS"
                                    + " source_timeline bigint, ADD COLUMN IF NOT EXISTS owner_epoch bigint NOT NULL"
                                    + " DEFAULT 0, ADD COLUMN IF NOT EXISTS table_group text"));
                }
            }
        }
    }
}
