package dev.pglane.source.capture;

import java.util.Collection;
import java.util.Collections;
import java.util.SortedSet;
import java.util.TreeSet;
import java.util.stream.Collectors;

/**
 * The tables a connector captures, by OID, in the text form the offsets carry: the OIDs in ascending order,
 * comma-separated. OIDs, not names: a renamed table is the same table, and one dropped and created again under its
 * name is a new one (whose rows the stream never had).
 */
public final class CapturedTables {
    private final SortedSet<Long> oids;

    private CapturedTables(SortedSet<Long> oids) {
        this.oids = Collections.unmodifiableSortedSet(oids);
    }

    public static CapturedTables of(Collection<Long> oids) {
        return new CapturedTables(new TreeSet<>(oids));
    }

    /** @throws IllegalArgumentException if {@code text} is not what {@link #toText} writes */
    public static CapturedTables parse(String text) {
        SortedSet<Long> oids = new TreeSet<>();
        if (!text.isEmpty()) {
            for (String oid : text.split(",", -1)) {
                try {
                    oids.add(Long.parseLong(oid));
                } catch (NumberFormatException e) {
                    throw new IllegalArgumentException("captured tables: '" + oid + "' is no OID in '" + text + "'");
                }
            }
        }
        return new CapturedTables(oids);
    }

    public String toText() {
        return oids.stream().map(String::valueOf).collect(Collectors.joining(","));
    }

    public boolean contains(long oid) {
        return oids.contains(oid);
    }

    public SortedSet<Long> oids() {
        return oids;
    }

    @Override
    public boolean equals(Object other) {
        return other instanceof CapturedTables that && oids.equals(that.oids);
    }

    @Override
    public int hashCode() {
        return oids.hashCode();
    }

    @Override
    public String toString() {
        return "[" + toText() + "]";
    }
}
