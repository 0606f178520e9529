package dev.pglane.wire;

import java.util.HashMap;
import java.util.Map;

/**
 * The source task's Connect offset: how far the stream has been emitted, and by which task run.
 *
 * <p><b>The slot contract.</b> {@link #commitEndLsn()} is the end LSN ({@code Commit.end_lsn}) of the
 * last transaction whose records have all been emitted. Only this value is ever confirmed to the
 * replication slot ({@code confirmed_flush_lsn}), and only after Kafka acknowledged the records that
 * carry it, i.e. after Connect committed this offset. A change LSN is never confirmed: change LSNs go
 * backwards across transactions (a transaction that started earlier but committed later has smaller
 * change LSNs), so confirming one could skip a transaction on restart. On restart the task starts
 * replication at {@code commitEndLsn} and drops transactions whose end LSN is at or below it.
 *
 * <p>{@link #generation()} counts the runs of the source task; the next run uses {@code generation + 1}
 * and announces it with a START marker (see {@code dev.pglane.wire.marker}). The in-transaction
 * position ({@link #xid()}, {@link #ordinal()}, {@link #changeLsn()}) records where inside an
 * unfinished transaction the last emitted record was; it is informational (metrics, logs), because a
 * transaction cut off by a restart is always sent again from its start under the new generation.
 *
 * @param xid the open transaction, or {@code null} between transactions
 * @param ordinal the per-xid ordinal ({@code transaction.total_order}) of the last emitted record, or null
 * @param changeLsn the LSN of the last emitted change, or {@code null}
 * @param snapshot how far the snapshot under way has got (the source's own text form), or {@code null} when none is
 * @param tables the tables the connector captures as of this position (the source's own text form), so that a table
 *     that joins the publication, also while the connector is stopped, is recognized as new; {@code null} when the
 *     connector does not track them ({@code snapshot.new.tables} off)
 * @param messageKey the key with which the connector seals the logical decoding messages that steer it, when it
 *     generated one itself (the source's own text form), so that every run opens the messages of earlier ones;
 *     {@code null} when the user configured it
 */
public record SourceOffset(
        Lsn commitEndLsn,
        long generation,
        Long xid,
        Long ordinal,
        Lsn changeLsn,
        String snapshot,
        String tables,
        String messageKey) {

    /** Key of the source partition map. */
    public static final String SERVER = "server";

    public static final String COMMIT_END_LSN = "commit_end_lsn";
    public static final String GENERATION = "generation";
    public static final String XID = "xid";
    public static final String ORDINAL = "ordinal";
    public static final String CHANGE_LSN = "change_lsn";
    public static final String SNAPSHOT = "snapshot";
    public static final String TABLES = "tables";
    public static final String MESSAGE_KEY = "message_key";

    /** An offset outside any snapshot, of a connector that does not track its tables. */
    public SourceOffset(Lsn commitEndLsn, long generation, Long xid, Long ordinal, Lsn changeLsn) {
        this(commitEndLsn, generation, xid, ordinal, changeLsn, null, null, null);
    }

    public SourceOffset {
        if (commitEndLsn == null) {
            throw new IllegalArgumentException("commit_end_lsn must not be null");
        }
        if (generation < 0) {
            throw new IllegalArgumentException("generation must not be negative: " + generation);
        }
    }

    /** The position between transactions, after the one ending at {@code commitEndLsn}. */
    public static SourceOffset between(Lsn commitEndLsn, long generation) {
        return new SourceOffset(commitEndLsn, generation, null, null, null);
    }

    /** The Connect source partition, {@code {"server": <topic.prefix>}} as Debezium uses. */
    public static Map<String, String> partition(String topicPrefix) {
        return Map.of(SERVER, topicPrefix);
    }

    /** The Connect offset map; LSNs as their raw 64-bit values. */
    public Map<String, Object> toMap() {
        Map<String, Object> map = new HashMap<>();
        map.put(COMMIT_END_LSN, commitEndLsn.asLong());
        map.put(GENERATION, generation);
        if (xid != null) {
            map.put(XID, xid);
        }
        if (ordinal != null) {
            map.put(ORDINAL, ordinal);
        }
        if (changeLsn != null) {
            map.put(CHANGE_LSN, changeLsn.asLong());
        }
        if (snapshot != null) {
            map.put(SNAPSHOT, snapshot);
        }
        if (tables != null) {
            map.put(TABLES, tables);
        }
        if (messageKey != null) {
            map.put(MESSAGE_KEY, messageKey);
        }
        return map;
    }

    /**
     * Reads an offset map written by {@link #toMap()}. Numbers may come back as any integral type,
     * depending on the worker's offset store.
     *
     * @throws WireFormatException naming the key if one is missing or not an integer
     */
    public static SourceOffset fromMap(Map<String, ?> map) {
        if (map == null) {
            throw new WireFormatException("source offset: offset map is null");
        }
        Long commitEnd = number(map, COMMIT_END_LSN, true);
        Long generation = number(map, GENERATION, true);
        if (generation < 0) {
            throw WireFormatException.forField("source offset", GENERATION, generation, "must not be negative");
        }
        Long changeLsn = number(map, CHANGE_LSN, false);
        return new SourceOffset(
                Lsn.valueOf(commitEnd),
                generation,
                number(map, XID, false),
                number(map, ORDINAL, false),
                changeLsn == null ? null : Lsn.valueOf(changeLsn),
                text(map, SNAPSHOT),
                text(map, TABLES),
                text(map, MESSAGE_KEY));
    }

    private static String text(Map<String, ?> map, String key) {
        Object value = map.get(key);
        if (value == null || value instanceof String) {
            return (String) value;
        }
        throw WireFormatException.forField(
                "source offset",
                key,
                value,
                "must be a string, not " + value.getClass().getSimpleName());
    }

    private static Long number(Map<String, ?> map, String key, boolean required) {
        Object value = map.get(key);
        if (value == null) {
            if (required) {
                throw WireFormatException.forField("source offset", key, null, "required key is missing");
            }
            return null;
        }
        if (value instanceof Long || value instanceof Integer || value instanceof Short || value instanceof Byte) {
            return ((Number) value).longValue();
        }
        throw WireFormatException.forField(
                "source offset",
                key,
                value,
                "must be an integer, not " + value.getClass().getSimpleName());
    }
}
