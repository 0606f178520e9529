package dev.pglane.source.reader;

import dev.pglane.source.SlotRecreate;
import dev.pglane.wire.Lsn;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import org.apache.kafka.connect.errors.ConnectException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Makes sure the replication slot exists as a pgoutput slot of this database, and reads its position. A slot is
 * created only where that loses nothing: for a connector without a stored offset. A connector with one whose slot
 * is missing or invalidated has lost the changes since its offset on the server; a new slot would start after
 * them and skip them without a trace, so that fails unless {@link SlotRecreate#ALLOW_GAP} accepts the gap.
 */
public final class SlotSetup {
    private static final Logger log = LoggerFactory.getLogger(SlotSetup.class);
    private static final String DUPLICATE_OBJECT = "42710";

    /** invalidation_reason and failover exist from PostgreSQL 17 on; read through to_jsonb, they are NULL before. */
    private static final String STATE = "SELECT s.slot_type, s.plugin, s.database, pg_catalog.current_database(),"
            + " s.confirmed_flush_lsn::text, s.wal_status, pg_catalog.to_jsonb(s) ->> 'invalidation_reason',"
            + " (pg_catalog.to_jsonb(s) ->> 'failover')::boolean"
            + " FROM pg_catalog.pg_replication_slots s WHERE s.slot_name = ?";

    private SlotSetup() {}

    /** The slot as the server describes it; {@code lost} when it can no longer serve changes. */
    private record SlotState(Lsn confirmed, boolean lost, String why, boolean failover) {}

    /**
     * The slot, ready.
     *
     * @param confirmed its {@code confirmed_flush_lsn}: where a connector without a stored offset starts
     * @param recreatedOverOffset it was created again although an offset is stored: the changes between them are gone
     * @param failover it is a failover slot (always false before PostgreSQL 17)
     */
    public record Slot(Lsn confirmed, boolean recreatedOverOffset, boolean failover) {}

    /**
     * Makes the slot ready to stream from.
     *
     * @param stored the connector's stored offset ({@code commit_end_lsn}), or {@code null} if it has none
     * @param connector the connector's name, for the recovery steps the error names
     * @param snapshotFillsGap a new snapshot will send every row again ({@code snapshot.mode=when_needed}), so a slot
     *     lost under a stored offset is created again
     * @param failover create a missing slot as a failover slot (PostgreSQL 17 and newer, on a primary)
     * @throws ConnectException if the slot exists but is not a logical pgoutput slot of this database, or if it is
     *     missing or invalidated while an offset is stored, {@code recreate} is {@link SlotRecreate#NEVER} and no
     *     snapshot fills the gap
     */
    public static Slot ensure(
            Connection connection,
            String slot,
            Lsn stored,
            SlotRecreate recreate,
            String connector,
            boolean snapshotFillsGap,
            boolean failover)
            throws SQLException {
        SlotState state = state(connection, slot);
        if (state != null && !state.lost()) {
            return new Slot(state.confirmed(), false, state.failover());
        }
        String what = state == null ? "does not exist" : "can no longer serve changes (" + state.why() + ")";
        if (stored != null && recreate == SlotRecreate.NEVER && !snapshotFillsGap) {
            String rest = "/connectors/" + connector;
            throw new ConnectException("Replication slot '" + slot + "' " + what + ", but connector " + connector
                    + " has a stored offset at end LSN " + stored + ": the server no longer holds the changes since"
                    + " then, and a new slot would start after them and skip them. Either rebuild the target from the"
                    + " source and reset the connector's offsets (PUT " + rest + "/stop, DELETE " + rest + "/offsets,"
                    + " PUT " + rest + "/resume), set snapshot.mode=when_needed to recreate the slot and send every"
                    + " row again, or set slot.recreate=allow_gap to recreate the slot and go on without those"
                    + " changes");
        }
        if (state != null) {
            drop(connection, slot);
        }
        SlotState created = create(connection, slot, failover);
        if (stored != null && snapshotFillsGap) {
            log.warn(
                    "Replication slot '{}' {}; snapshot.mode=when_needed created it again at {} and sends every row"
                            + " again, over the changes committed after {} that were not captured: each chunk"
                            + " replaces the rows of its key range on the target, so what was deleted in the gap goes"
                            + " too",
                    slot,
                    what,
                    created.confirmed(),
                    stored);
        } else if (stored != null) {
            log.warn(
                    "Replication slot '{}' {}; slot.recreate=allow_gap created it again at {}: the changes committed"
                            + " after {} up to {} were not captured and are missing downstream",
                    slot,
                    what,
                    created.confirmed(),
                    stored,
                    created.confirmed());
        } else if (state != null) {
            log.info("Replication slot '{}' {} and the connector has no stored offset: created it again", slot, what);
        }
        return new Slot(created.confirmed(), stored != null, created.failover());
    }

    private static SlotState create(Connection connection, String slot, boolean failover) throws SQLException {
        // the five-argument form exists from PostgreSQL 17 on, where failover does
        String sql = failover
                ? "SELECT lsn::text FROM pg_catalog.pg_create_logical_replication_slot(?, 'pgoutput', false, false, true)"
                : "SELECT lsn::text FROM pg_catalog.pg_create_logical_replication_slot(?, 'pgoutput')";
        try (PreparedStatement st = connection.prepareStatement(sql)) {
            st.setString(1, slot);
            try (ResultSet rs = st.executeQuery()) {
                rs.next();
                log.info(
                        "Created replication slot {} (pgoutput{}) at LSN {}",
                        slot,
                        failover ? ", failover" : "",
                        rs.getString(1));
            }
        } catch (SQLException e) {
            if (!DUPLICATE_OBJECT.equals(e.getSQLState())) {
                throw e;
            }
        }
        SlotState created = state(connection, slot);
        if (created == null) {
            throw new ConnectException("Replication slot '" + slot + "' disappeared right after it was created");
        }
        return created;
    }

    private static void drop(Connection connection, String slot) throws SQLException {
        try (PreparedStatement st = connection.prepareStatement("SELECT pg_catalog.pg_drop_replication_slot(?)")) {
            st.setString(1, slot);
            st.execute();
        }
    }

    private static SlotState state(Connection connection, String slot) throws SQLException {
        try (PreparedStatement st = connection.prepareStatement(STATE)) {
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
                String walStatus = rs.getString(6);
                String reason = rs.getString(7);
                boolean lost = "lost".equals(walStatus) || reason != null;
                String why = reason != null ? "invalidated: " + reason : "wal_status " + walStatus;
                String confirmed = rs.getString(5);
                return new SlotState(
                        confirmed == null ? Lsn.INVALID : Lsn.parse(confirmed), lost, why, rs.getBoolean(8));
            }
        }
    }
}
