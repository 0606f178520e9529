package dev.pglane.source.reader;

import dev.pglane.wire.Lsn;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import org.apache.kafka.connect.errors.ConnectException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/** Makes sure the replication slot exists as a pgoutput slot of this database, and reads its position. */
public final class SlotSetup {
    private static final Logger log = LoggerFactory.getLogger(SlotSetup.class);
    private static final String DUPLICATE_OBJECT = "42710";

    private SlotSetup() {}

    /**
     * Creates the slot when it is absent.
     *
     * @return the slot's {@code confirmed_flush_lsn}: where a connector without a stored offset starts
     * @throws ConnectException if the slot exists but is not a logical pgoutput slot of this database
     */
    public static Lsn ensure(Connection connection, String slot) throws SQLException {
        Lsn confirmed = confirmedFlush(connection, slot);
        if (confirmed != null) {
            return confirmed;
        }
        try (PreparedStatement st = connection.prepareStatement(
                "SELECT lsn::text FROM pg_catalog.pg_create_logical_replication_slot(?, 'pgoutput')")) {
            st.setString(1, slot);
            try (ResultSet rs = st.executeQuery()) {
                rs.next();
                log.info("Created replication slot {} (pgoutput) at LSN {}", slot, rs.getString(1));
            }
        } catch (SQLException e) {
            if (!DUPLICATE_OBJECT.equals(e.getSQLState())) {
                throw e;
            }
        }
        return confirmedFlush(connection, slot);
    }

    private static Lsn confirmedFlush(Connection connection, String slot) throws SQLException {
        try (PreparedStatement st = connection.prepareStatement(
                "SELECT slot_type, plugin, database,"
                        + " pg_catalog.current_database(), confirmed_flush_lsn::text FROM pg_replication_slots WHERE slot_name = ?")) {
            st.setString(1, slot);
            try (ResultSet rs = st.executeQuery()) {
                if (!rs.next()) {
                    return null;
                }
                if (!"logical".equals(rs.getString(1))
                        || !"pgoutput".equals(rs.getString(2))
                        || !rs.getString(4).equals(rs.getString(3))) {
                    throw new ConnectException("Replication slot '" + slot + "' is a " + rs.getString(1)
                            + " slot with plugin " + rs.getString(2) + " on database " + rs.getString(3)
                            + "; pglane needs a logical pgoutput slot on " + rs.getString(4));
                }
                return Lsn.parse(rs.getString(5));
            }
        }
    }
}
