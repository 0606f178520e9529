package dev.pglane.wire;

import java.util.Locale;

/**
 * A PostgreSQL WAL position ({@code pg_lsn}): an unsigned 64-bit byte offset.
 *
 * <p>PostgreSQL prints it as two hexadecimal 32-bit halves, {@code 16/B374D848}. Values above
 * 2<sup>63</sup> are legal, so comparison and arithmetic here are unsigned; a plain {@code long}
 * compare would order them wrongly. Instances are immutable and may be shared between threads.
 */
public final class Lsn implements Comparable<Lsn> {

    /** {@code 0/0}: PostgreSQL's InvalidXLogRecPtr, e.g. the abort LSN of a stream abort after a crash. */
    public static final Lsn INVALID = new Lsn(0L);

    private final long value;

    private Lsn(long value) {
        this.value = value;
    }

    /** Wraps a raw 64-bit position as PostgreSQL sends it on the wire (unsigned). */
    public static Lsn valueOf(long value) {
        return value == 0L ? INVALID : new Lsn(value);
    }

    /**
     * Parses PostgreSQL's {@code %X/%X} text form (case-insensitive, 1 to 8 hex digits per half).
     *
     * @throws IllegalArgumentException naming the text if it is not an LSN
     */
    public static Lsn parse(String text) {
        if (text == null) {
            throw new IllegalArgumentException("LSN text is null");
        }
        int slash = text.indexOf('/');
        String high = slash < 0 ? "" : text.substring(0, slash);
        String low = slash < 0 ? "" : text.substring(slash + 1);
        if (!isHexHalf(high) || !isHexHalf(low)) {
            throw new IllegalArgumentException("not a PostgreSQL LSN (expected %X/%X): '" + text + "'");
        }
        return valueOf(Long.parseLong(high, 16) << 32 | Long.parseLong(low, 16));
    }

    /** 1 to 8 hex digits; rejects the signs and blanks that {@link Long#parseLong} would accept. */
    private static boolean isHexHalf(String half) {
        if (half.isEmpty() || half.length() > 8) {
            return false;
        }
        for (int i = 0; i < half.length(); i++) {
            if (Character.digit(half.charAt(i), 16) < 0) {
                return false;
            }
        }
        return true;
    }

    /** The raw 64-bit value (to be read as unsigned), as stored in offsets and record fields. */
    public long asLong() {
        return value;
    }

    /** False only for {@code 0/0}, which PostgreSQL uses for "no position". */
    public boolean isValid() {
        return value != 0L;
    }

    /** This position moved forward by {@code bytes} (wraps like PostgreSQL's own arithmetic). */
    public Lsn plus(long bytes) {
        return valueOf(value + bytes);
    }

    /**
     * The number of WAL bytes from {@code earlier} to this position, e.g. replication lag.
     *
     * @throws IllegalArgumentException if {@code earlier} is after this position
     */
    public long bytesSince(Lsn earlier) {
        if (compareTo(earlier) < 0) {
            throw new IllegalArgumentException("LSN " + earlier + " is after " + this);
        }
        return value - earlier.value;
    }

    /** The later of the two positions. */
    public static Lsn max(Lsn a, Lsn b) {
        return a.compareTo(b) >= 0 ? a : b;
    }

    @Override
    public int compareTo(Lsn other) {
        return Long.compareUnsigned(value, other.value);
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof Lsn other && other.value == value;
    }

    @Override
    public int hashCode() {
        return Long.hashCode(value);
    }

    /** PostgreSQL's text form, upper-case hex without leading zeros: {@code 16/B374D848}. */
    @Override
    public String toString() {
        return String.format(Locale.ROOT, "%X/%X", value >>> 32, value & 0xFFFFFFFFL);
    }
}
