package dev.pglane.source.reader;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * {@code slot.failover}: where the server offers failover slots (PostgreSQL 17 and newer, a primary), the slot is
 * made one, so that a standby with {@code sync_replication_slots} keeps a copy the connector can go on from after a
 * promotion. A missing slot is created so ({@link SlotSetup}); an existing one is changed at the start of a session,
 * before streaming, unless another walsender holds the slot: the session then goes on with the slot as it is, says
 * so, and the next one tries again.
 */
public final class FailoverSlot {
    private static final Logger log = LoggerFactory.getLogger(FailoverSlot.class);

    private FailoverSlot() {}

    /** Whether the server behind {@code sql} can keep failover slots: PostgreSQL 17 or newer, not in recovery. */
    public static boolean offered(Connection sql) throws SQLException {
        try (Statement st = sql.createStatement();
                ResultSet rs = st.executeQuery("SELECT pg_catalog.current_setting('server_version_num')::int >= 170000"
                        + " AND NOT pg_catalog.pg_is_in_recovery()")) {
            rs.next();
            return rs.getBoolean(1);
        }
    }

    /**
     * Makes the slot's failover flag {@code wanted} if it is not, through {@code replication} (the session's own
     * replication connection, before it streams); call it only where the server {@link #offered offers} failover.
     * {@code ALTER_REPLICATION_SLOT} waits for a slot another walsender holds, as long as that one lives, so a held
     * slot is left as it is: checked first on {@code sql}.
     */
    static void align(
            Connection sql, ReplicationConnection replication, String slot, SlotSetup.Slot state, boolean wanted)
            throws SQLException {
        if (state.failover() == wanted) {
            return;
        }
        long holder = holder(sql, slot);
        if (holder != 0) {
            log.warn(
                    "Replication slot {} stays {} failover slot although slot.failover={}: walsender {} holds it (a"
                            + " task instance left on a worker that lost its group, or another client); the next"
                            + " session tries again",
                    slot,
                    wanted ? "no" : "a",
                    wanted,
                    holder);
            return;
        }
        replication.alterSlotFailover(slot, wanted);
        log.info(
                "Replication slot {} is {} a failover slot (slot.failover={})",
                slot,
                wanted ? "now" : "no longer",
                wanted);
    }

    /** The pid of the walsender that holds the slot, 0 if none. */
    private static long holder(Connection sql, String slot) throws SQLException {
        try (PreparedStatement st = sql.prepareStatement(
                "SELECT COALESCE(active_pid, 0) FROM pg_catalog.pg_replication_slots WHERE slot_name = ?")) {
            st.setString(1, slot);
            try (ResultSet rs = st.executeQuery()) {
                return rs.next() ? rs.getLong(1) : 0;
            }
        }
    }
}
