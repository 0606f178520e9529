package dev.pglane.source;

import static org.apache.kafka.common.config.ConfigDef.Importance.LOW;
import static org.apache.kafka.common.config.ConfigDef.Importance.MEDIUM;
import static org.apache.kafka.common.config.ConfigDef.Type.BOOLEAN;
import static org.apache.kafka.common.config.ConfigDef.Type.LONG;
import static org.apache.kafka.common.config.ConfigDef.Type.STRING;

import dev.pglane.connect.config.ConfigGroup;
import org.apache.kafka.common.config.ConfigDef.Range;
import org.apache.kafka.common.config.ConfigDef.Width;

/**
 * The keys of the source's configuration that look after its replication slot (WAL it holds unnoticed, failover to a
 * standby): their docs, defaults and validators, defined into the replication group of {@link
 * PgSourceConfig#CONFIG_DEF}, which reads them.
 */
public final class HousekeepingSettings {
    public static final String HEARTBEAT_ACTION_QUERY = "heartbeat.action.query";
    static final String HEARTBEAT_ACTION_QUERY_DOC = "A statement the source runs on the source database at every"
            + " heartbeat.interval.ms (which must then be set), on a connection of its own in autocommit, e.g. an"
            + " upsert into a small captured table. For a database whose captured tables are idle while others on the"
            + " server are busy: each run is a change that travels to Kafka, so the slot's position, and the sink's"
            + " progress, keep moving. Its names must be schema-qualified (the session's search_path is pg_catalog);"
            + " a failing run is logged, and tried again at the next heartbeat. Empty: none.";

    public static final String SLOT_RETAINED_WAL_WARN_BYTES = "slot.retained.wal.warn.bytes";
    static final String SLOT_RETAINED_WAL_WARN_BYTES_DOC = "WAL the slot may hold back (from its restart_lsn to the"
            + " server's position) before the source logs a WARN, again every five minutes while it stays above,"
            + " naming the slot, the bytes, wal_status and safe_wal_size; a wal_status of unreserved or lost is always"
            + " warned of. The metrics slot-retained-wal-bytes and slot-safe-wal-bytes show both, looked up every 30"
            + " s. 0: no WARN for the size.";
    static final long SLOT_RETAINED_WAL_WARN_BYTES_DEFAULT = 1L << 30;

    public static final String SLOT_FAILOVER = "slot.failover";
    static final String SLOT_FAILOVER_DOC = "Make the slot a failover slot (PostgreSQL 17 and newer, connected to a"
            + " primary): the source creates it with failover enabled, or enables it on an existing slot at the start"
            + " of a session (ALTER_REPLICATION_SLOT; if another walsender holds the slot a WARN says so and the next"
            + " session tries again). A standby with sync_replication_slots = on then keeps a copy of the slot, and"
            + " after its promotion the connector, pointed at it, goes on from its stored position. List the standby's"
            + " physical slot in the primary's synchronized_standby_slots, or the source may receive changes the"
            + " standby does not have yet, which a promotion would lose on the new primary while the target keeps"
            + " them; validate() warns of that. Ignored before PostgreSQL 17 and on a standby. false: the slot is made"
            + " a plain one.";

    private HousekeepingSettings() {}

    static void define(ConfigGroup group) {
        group.key(HEARTBEAT_ACTION_QUERY, "Heartbeat action query", Width.LONG)
                .define(STRING, "", null, LOW, HEARTBEAT_ACTION_QUERY_DOC);
        group.key(SLOT_FAILOVER, "Failover slot", Width.SHORT).define(BOOLEAN, true, null, MEDIUM, SLOT_FAILOVER_DOC);
        group.key(SLOT_RETAINED_WAL_WARN_BYTES, "Warn above retained WAL (bytes)", Width.SHORT)
                .define(
                        LONG,
                        SLOT_RETAINED_WAL_WARN_BYTES_DEFAULT,
                        Range.atLeast(0),
                        MEDIUM,
                        SLOT_RETAINED_WAL_WARN_BYTES_DOC);
    }
}
