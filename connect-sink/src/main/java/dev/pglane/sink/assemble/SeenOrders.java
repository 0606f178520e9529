package dev.pglane.sink.assemble;

import java.util.BitSet;
import java.util.HashSet;
import java.util.Set;

/**
 * The {@code total_order} values a copy has received, to drop redelivered records. Positions are
 * dense from 1, so a bit set holds a million records in 128 KiB; the (theoretical) positions beyond
 * {@code int} range go to a plain set.
 */
final class SeenOrders {
    private final BitSet small = new BitSet();
    private final Set<Long> large = new HashSet<>();

    /** Records {@code totalOrder}; false if it was already there. */
    boolean add(long totalOrder) {
        if (totalOrder <= Integer.MAX_VALUE) {
            int bit = (int) totalOrder;
            if (small.get(bit)) {
                return false;
            }
            small.set(bit);
            return true;
        }
        return large.add(totalOrder);
    }
}
