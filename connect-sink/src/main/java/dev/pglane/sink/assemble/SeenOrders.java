package dev.pglane.sink.assemble;

import java.util.Arrays;
import java.util.BitSet;
import java.util.HashMap;
import java.util.Map;

/**
 * The {@code total_order} values a copy has received, each with a fingerprint of the change that came at it, to tell
 * a record delivered again (same position, same change) from a different change at a position already taken: a
 * source that numbered a transaction's records differently when it sent them again. Positions are dense from 1, so a
 * bit set and four bytes of fingerprint per record hold a million records in about 4 MiB; positions beyond {@code
 * int} range (theoretical) go to a map.
 */
final class SeenOrders {
    /** What a position was, before {@link #add}. */
    enum Arrival {
        /** Not taken: the record is new. */
        NEW,
        /** Taken by the same change: the record came again. */
        REPEATED,
        /** Taken by another change. */
        CLASHING
    }

    private final BitSet small = new BitSet();
    private int[] fingerprints = new int[64];
    private final Map<Long, Integer> large = new HashMap<>();

    /** Records {@code totalOrder} as taken by the change of {@code fingerprint}, unless it was taken already. */
    Arrival add(long totalOrder, int fingerprint) {
        if (totalOrder > Integer.MAX_VALUE) {
            Integer held = large.putIfAbsent(totalOrder, fingerprint);
            return held == null ? Arrival.NEW : held == fingerprint ? Arrival.REPEATED : Arrival.CLASHING;
        }
        int position = (int) totalOrder;
        if (small.get(position)) {
            return fingerprints[position] == fingerprint ? Arrival.REPEATED : Arrival.CLASHING;
        }
        small.set(position);
        if (position >= fingerprints.length) {
            fingerprints = Arrays.copyOf(fingerprints, Math.max(position + 1, fingerprints.length * 2));
        }
        fingerprints[position] = fingerprint;
        return Arrival.NEW;
    }
}
