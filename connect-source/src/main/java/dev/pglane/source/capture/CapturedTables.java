package dev.pglane.source.capture;

import java.util.Arrays;
import java.util.Collection;
import java.util.stream.Collectors;

/**
 * The tables a connector captures, by OID, in the text form the offsets carry: the OIDs in ascending order,
 * comma-separated. OIDs, not names: a renamed table is the same table, and one dropped and created again under its
 * name is a new one (whose rows the stream never had). Held as a sorted array: the reader asks {@link #contains} for
 * every change it streams.
 */
public final class CapturedTables {
    private final long[] oids;

    private CapturedTables(long[] oids) {
        this.oids = Arrays.stream(oids).sorted().distinct().toArray();
    }

    public static CapturedTables of(Collection<Long> oids) {
        return new CapturedTables(oids.stream().mapToLong(Long::longValue).toArray());
    }

    /** @throws IllegalArgumentException if {@code text} is not what {@link #toText} writes */
    public static CapturedTables parse(String text) {
        if (text.isEmpty()) {
            return new CapturedTables(new long[0]);
        }
        String[] parts = text.split(",", -1);
        long[] oids = new long[parts.length];
        for (int i = 0; i < parts.length; i++) {
            try {
                oids[i] = Long.parseLong(parts[i]);
            } catch (NumberFormatException e) {
                throw new IllegalArgumentException("captured tables: '" + parts[i] + "' is no OID in '" + text + "'");
            }
        }
        return new CapturedTables(oids);
    }

    public String toText() {
        return Arrays.stream(oids).mapToObj(String::valueOf).collect(Collectors.joining(","));
    }

    public boolean contains(long oid) {
        return Arrays.binarySearch(oids, oid) >= 0;
    }

    public int size() {
        return oids.length;
    }

    @Override
    public boolean equals(Object other) {
        return other instanceof CapturedTables that && Arrays.equals(oids, that.oids);
    }

    @Override
    public int hashCode() {
        return Arrays.hashCode(oids);
    }

    @Override
    public String toString() {
        return "[" + toText() + "]";
    }
}
