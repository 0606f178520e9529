package dev.pglane.source.reader;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;

/**
 * Asks the server on the session's plain SQL connection whether the slot is still held by this session's walsender.
 * A walsender that no longer hears its client ends after wal_sender_timeout and lets go of the slot; a server that
 * cannot be reached fails the query (the connection's network timeout bounds it).
 */
final class SlotLiveness implements StreamLiveness {
    private final Connection sql;
    private final String slot;
    private final int walsenderPid;

    SlotLiveness(Connection sql, String slot, int walsenderPid) {
        this.sql = sql;
        this.slot = slot;
        this.walsenderPid = walsenderPid;
    }

    @Override
    public String problem() throws SQLException {
        try (PreparedStatement st = sql.prepareStatement(
                "SELECT s.active_pid FROM pg_catalog.pg_replication_slots s WHERE s.slot_name = ?")) {
            st.setString(1, slot);
            try (ResultSet rs = st.executeQuery()) {
                if (!rs.next()) {
                    return "slot " + slot + " no longer exists";
                }
                int active = rs.getInt(1);
                if (rs.wasNull()) {
                    return "no walsender holds slot " + slot + " (this session's was pid " + walsenderPid + ")";
                }
                return active == walsenderPid
                        ? null
                        : "slot " + slot + " is held by walsender pid " + active + ", not this session's pid "
                                + walsenderPid;
            }
        }
    }
}
