package dev.pglane.source.validate;

import static dev.pglane.source.PgSourceConfig.SLOT_NAME;

import dev.pglane.connect.database.DatabaseEndpoint;
import dev.pglane.connect.validate.ConfigProblem;
import dev.pglane.connect.validate.ServerCheck;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.List;

/**
 * Whether the configured slot can serve this connector: an existing slot must be a pgoutput slot
 * of this database; a missing one must still be creatable and streamable (a free slot and a free
 * WAL sender).
 */
final class SlotCheck implements ServerCheck {
    private final String slot;
    private final DatabaseEndpoint endpoint;

    SlotCheck(String slot, DatabaseEndpoint endpoint) {
        this.slot = slot;
        this.endpoint = endpoint;
    }

    @Override
    public void run(Connection connection, List<ConfigProblem> problems) throws SQLException {
        try (PreparedStatement st = connection.prepareStatement("SELECT slot_type, plugin, database,"
                + " pg_catalog.current_database() FROM pg_replication_slots WHERE slot_name = ?")) {
            st.setString(1, slot);
            try (ResultSet rs = st.executeQuery()) {
                if (rs.next()) {
                    checkExisting(rs, problems);
                    return;
                }
            }
        }
        checkCapacity(connection, problems);
    }

    private void checkExisting(ResultSet rs, List<ConfigProblem> problems) throws SQLException {
        String prefix = "Replication slot '" + slot + "' on " + endpoint.address();
        if (!"logical".equals(rs.getString(1))) {
            problems.add(problem(prefix + " is a physical slot; choose another " + SLOT_NAME));
        } else if (!"pgoutput".equals(rs.getString(2))) {
            problems.add(problem(prefix + " uses the output plugin '" + rs.getString(2)
                    + "', not pgoutput; choose another " + SLOT_NAME + " or drop that slot"));
        } else if (!rs.getString(4).equals(rs.getString(3))) {
            problems.add(problem(prefix + " belongs to database '" + rs.getString(3) + "', not '" + rs.getString(4)
                    + "'; choose another " + SLOT_NAME));
        }
    }

    private void checkCapacity(Connection connection, List<ConfigProblem> problems) throws SQLException {
        try (Statement st = connection.createStatement();
                ResultSet rs = st.executeQuery("SELECT pg_catalog.current_setting('max_replication_slots')::int,"
                        + " (SELECT pg_catalog.count(*) FROM pg_replication_slots),"
                        + " pg_catalog.current_setting('max_wal_senders')::int,"
                        + " (SELECT pg_catalog.count(*) FROM pg_stat_activity WHERE backend_type = 'walsender')")) {
            rs.next();
            String prefix = "Replication slot '" + slot + "' does not exist and ";
            if (rs.getInt(2) >= rs.getInt(1)) {
                problems.add(problem(prefix + "cannot be created: all " + rs.getInt(1)
                        + " slots that max_replication_slots allows on " + endpoint.address()
                        + " are in use"));
            }
            if (rs.getInt(4) >= rs.getInt(3)) {
                problems.add(problem(prefix + "could not be read: all " + rs.getInt(3)
                        + " WAL senders that max_wal_senders allows on " + endpoint.address() + " are in use"));
            }
        }
    }

    private static ConfigProblem problem(String message) {
        return new ConfigProblem(SLOT_NAME, message);
    }
}
