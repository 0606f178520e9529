package dev.pglane.source.validate;

import dev.pglane.connect.database.DatabaseEndpoint;
import dev.pglane.connect.validate.ConfigProblem;
import dev.pglane.connect.validate.ServerCheck;
import dev.pglane.source.reader.FailoverSlot;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.List;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * What {@code slot.failover} can promise on this server, said in the log (none of it is an error: failover is the
 * primary's and its standbys' set-up). On PostgreSQL 17 and newer, on a primary: which physical slots (standbys) the
 * primary has, and whether {@code synchronized_standby_slots} names any of them: with standbys but without it, the
 * source may receive changes no standby has yet, which after a promotion the new primary lacks while the target has
 * them (a WARN).
 */
final class FailoverCheck implements ServerCheck {
    private static final Logger log = LoggerFactory.getLogger(FailoverCheck.class);

    private final String connectorName;
    private final DatabaseEndpoint endpoint;

    FailoverCheck(String connectorName, DatabaseEndpoint endpoint) {
        this.connectorName = connectorName;
        this.endpoint = endpoint;
    }

    @Override
    public void run(Connection connection, List<ConfigProblem> problems) throws SQLException {
        if (!FailoverSlot.offered(connection)) {
            log.info(
                    "Connector '{}': {} is no PostgreSQL 17+ primary, so slot.failover does not apply there",
                    connectorName,
                    endpoint.address());
            return;
        }
        try (Statement st = connection.createStatement();
                ResultSet rs = st.executeQuery("SELECT pg_catalog.current_setting('synchronized_standby_slots', true),"
                        + " (SELECT pg_catalog.string_agg(slot_name || CASE WHEN active THEN ' (streaming)' ELSE ''"
                        + " END, ', ' ORDER BY slot_name) FROM pg_catalog.pg_replication_slots"
                        + " WHERE slot_type = 'physical')")) {
            rs.next();
            String synchronizedSlots = rs.getString(1);
            String physicalSlots = rs.getString(2);
            if (physicalSlots == null) {
                log.info(
                        "Connector '{}': slot.failover is on, but {} has no physical slot, so no standby can keep a"
                                + " copy of the slot yet",
                        connectorName,
                        endpoint.address());
            } else if (synchronizedSlots == null || synchronizedSlots.isBlank()) {
                log.warn(
                        "Connector '{}': slot.failover is on, but synchronized_standby_slots on {} is empty (physical"
                                + " slots: {}): the source may receive changes before any standby has them, and"
                                + " after a promotion the new primary lacks what the target already applied. Set"
                                + " synchronized_standby_slots to the physical slot of each standby that may be"
                                + " promoted, and sync_replication_slots = on on that standby",
                        connectorName,
                        endpoint.address(),
                        physicalSlots);
            } else {
                log.info(
                        "Connector '{}': slot.failover is on; {} sends the source only what the standbys of"
                                + " synchronized_standby_slots = '{}' have (physical slots: {}); each needs"
                                + " sync_replication_slots = on to keep a copy of the slot",
                        connectorName,
                        endpoint.address(),
                        synchronizedSlots,
                        physicalSlots);
            }
        }
    }
}
