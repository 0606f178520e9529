package dev.pglane.wire;

/**
 * PostgreSQL 32-bit transaction ids as they appear in pglane records.
 *
 * <p>pgoutput sends an xid as a signed {@code Int32}, but xids are unsigned and above 2<sup>31</sup>
 * they would turn negative. pglane therefore carries every xid as a non-negative {@code long}
 * (0..2<sup>32</sup>-1) in keys, envelopes, markers and offsets, and as its decimal text where
 * Debezium expects a string ({@code transaction.id}, marker {@code id}).
 *
 * <p>xids wrap around after 2<sup>32</sup> transactions, so an xid identifies a transaction only
 * among those in flight at the same time; ordering is always by LSN, never by xid.
 */
public final class Xid {

    /** The xid used in keys of records that belong to no transaction (START, HEARTBEAT, ...). */
    public static final long NONE = 0L;

    /** The largest 32-bit xid. */
    public static final long MAX = 0xFFFFFFFFL;

    private Xid() {}

    /** The unsigned value of an {@code Int32} xid read from the replication stream. */
    public static long fromWire(int xid) {
        return Integer.toUnsignedLong(xid);
    }

    /** The decimal text form used by {@code transaction.id} and the marker {@code id}. */
    public static String format(long xid) {
        return Long.toString(checkRange(xid));
    }

    /**
     * Parses the decimal text form.
     *
     * @throws IllegalArgumentException naming the text if it is not a 32-bit unsigned number
     */
    public static long parse(String text) {
        try {
            return checkRange(Long.parseLong(text));
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException("not a transaction id: '" + text + "'", e);
        }
    }

    /**
     * Returns {@code xid} if it is a valid 32-bit unsigned xid.
     *
     * @throws IllegalArgumentException naming the value otherwise
     */
    public static long checkRange(long xid) {
        if (xid < 0 || xid > MAX) {
            throw new IllegalArgumentException("transaction id out of the 32-bit unsigned range: " + xid);
        }
        return xid;
    }
}
