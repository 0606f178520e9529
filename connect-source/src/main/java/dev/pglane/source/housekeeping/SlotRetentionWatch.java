package dev.pglane.source.housekeeping;

import dev.pglane.connect.database.ConnectionOpener;
import dev.pglane.source.PeriodicWatch;
import dev.pglane.source.emit.FailureSlot;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Duration;
import java.util.Set;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * How much WAL the session's slot holds back, looked up every 30 s for the metrics, with a WARN while it is above
 * {@code slot.retained.wal.warn.bytes} or the server is about to remove WAL the slot needs ({@code wal_status}
 * unreserved or lost): a slot that holds WAL fills the server's disk, one that loses it breaks the connector, and
 * both happen without a word from the server.
 */
public final class SlotRetentionWatch extends PeriodicWatch {
    private static final Logger log = LoggerFactory.getLogger(SlotRetentionWatch.class);
    static final Duration PERIOD = Duration.ofSeconds(30);
    /** How often a WARN repeats while the slot stays above the threshold or at risk. */
    static final Duration REPEAT = Duration.ofMinutes(5);

    private static final Set<String> AT_RISK = Set.of("unreserved", "lost");
    private static final String QUERY = "SELECT s.wal_status, s.safe_wal_size, pg_catalog.pg_wal_lsn_diff(CASE WHEN"
            + " pg_catalog.pg_is_in_recovery() THEN pg_catalog.pg_last_wal_replay_lsn() ELSE"
            + " pg_catalog.pg_current_wal_insert_lsn() END, s.restart_lsn)::bigint"
            + " FROM pg_catalog.pg_replication_slots s WHERE s.slot_name = ?";

    private final String connectorName;
    private final String slot;
    private final long warnBytes;
    private volatile long retainedBytes = -1;
    private volatile long safeWalBytes = -1;
    private String lastWarned;
    private long lastWarnNanos;

    SlotRetentionWatch(
            String connectorName,
            String slot,
            long warnBytes,
            Duration period,
            ConnectionOpener connections,
            FailureSlot failures) {
        super(connectorName, "slot-retention", period, connections, failures);
        this.connectorName = connectorName;
        this.slot = slot;
        this.warnBytes = warnBytes;
    }

    /** Starts looking at {@code slot} every 30 s; {@code warnBytes} 0 warns only of a slot at risk. */
    public static SlotRetentionWatch start(
            String connectorName, String slot, long warnBytes, ConnectionOpener connections, FailureSlot failures) {
        SlotRetentionWatch watch =
                new SlotRetentionWatch(connectorName, slot, warnBytes, PERIOD, connections, failures);
        watch.startThread();
        return watch;
    }

    /** WAL bytes from the slot's {@code restart_lsn} to the server's position at the last look; -1 before one. */
    public long retainedBytes() {
        return retainedBytes;
    }

    /**
     * The slot's {@code safe_wal_size} at the last look: what may still be written before the slot is at risk of
     * losing WAL; -1 when {@code max_slot_wal_keep_size} does not limit it, or before a look.
     */
    public long safeWalBytes() {
        return safeWalBytes;
    }

    @Override
    protected void check(Connection connection) throws SQLException {
        try (PreparedStatement st = connection.prepareStatement(QUERY)) {
            st.setString(1, slot);
            try (ResultSet rs = st.executeQuery()) {
                if (!rs.next()) {
                    return; // the session itself fails on a slot that is gone
                }
                String walStatus = rs.getString(1);
                long safe = rs.getLong(2);
                safeWalBytes = rs.wasNull() ? -1 : safe;
                long retained = rs.getLong(3);
                retainedBytes = rs.wasNull() ? -1 : retained;
                warnIfNeeded(walStatus, retainedBytes, safeWalBytes);
            }
        }
    }

    private void warnIfNeeded(String walStatus, long retained, long safe) {
        boolean atRisk = AT_RISK.contains(walStatus);
        boolean large = warnBytes > 0 && retained >= warnBytes;
        if (!atRisk && !large) {
            if (lastWarned != null) {
                log.info(
                        "pglane source {}: slot {} retains {} MiB of WAL again, below {} MiB (wal_status {})",
                        connectorName,
                        slot,
                        retained >> 20,
                        warnBytes >> 20,
                        walStatus);
                lastWarned = null;
            }
            return;
        }
        String state = atRisk ? walStatus : "large";
        long now = System.nanoTime();
        if (state.equals(lastWarned) && now - lastWarnNanos < REPEAT.toNanos()) {
            return;
        }
        lastWarned = state;
        lastWarnNanos = now;
        log.warn(
                "pglane source {}: slot {} retains {} MiB of WAL (warning above {} MiB); wal_status {}, safe_wal_size {}."
                        + " {}",
                connectorName,
                slot,
                retained >> 20,
                warnBytes >> 20,
                walStatus,
                safe < 0 ? "unlimited" : (safe >> 20) + " MiB",
                atRisk
                        ? "The server removes, or has removed, WAL the slot needs: the connector cannot resume past"
                                + " the gap (see slot.recreate)."
                        : "Kafka or the connector is behind, or the task is stopped while the slot stays.");
    }

    @Override
    protected String describe() {
        return "the retained-WAL watch of slot " + slot;
    }

    @Override
    protected String whileFailing() {
        return "cannot read how much WAL slot " + slot + " retains";
    }
}
