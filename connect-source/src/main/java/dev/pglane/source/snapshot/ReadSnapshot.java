package dev.pglane.source.snapshot;

import java.util.Arrays;

/**
 * The MVCC snapshot a chunk was read under, as {@code pg_current_snapshot()} gives it ({@code xmin:xmax:xip,...},
 * 64-bit {@code xid8} values): it says which committed transactions of the stream the chunk's rows already include.
 *
 * <p>The stream names transactions by their 32-bit xid. Every transaction the reader asks about commits near the
 * time of the snapshot, well within 2<sup>31</sup> transactions of its {@code xmax}, so the 32-bit xid is widened
 * with the epoch that puts it closest to {@code xmax}.
 */
final class ReadSnapshot {
    private static final long HALF = 1L << 31;

    private final long xmin;
    private final long xmax;
    private final long[] inProgress;

    private ReadSnapshot(long xmin, long xmax, long[] inProgress) {
        this.xmin = xmin;
        this.xmax = xmax;
        this.inProgress = inProgress;
    }

    /** @throws IllegalArgumentException if {@code text} is not the text form of a {@code pg_snapshot} */
    static ReadSnapshot parse(String text) {
        String[] parts = text.split(":", -1);
        if (parts.length != 3) {
            throw new IllegalArgumentException("not a pg_snapshot: " + text);
        }
        long[] xip = parts[2].isEmpty()
                ? new long[0]
                : Arrays.stream(parts[2].split(","))
                        .mapToLong(Long::parseUnsignedLong)
                        .sorted()
                        .toArray();
        return new ReadSnapshot(Long.parseUnsignedLong(parts[0]), Long.parseUnsignedLong(parts[1]), xip);
    }

    /** True if the committed transaction {@code xid} (32-bit, as the stream sends it) is visible in the snapshot. */
    boolean sees(long xid) {
        long wide = widen(xid);
        if (wide < xmin) {
            return true;
        }
        return wide < xmax && Arrays.binarySearch(inProgress, wide) < 0;
    }

    private long widen(long xid) {
        long wide = (xmax & ~0xFFFF_FFFFL) | (xid & 0xFFFF_FFFFL);
        if (wide > xmax + HALF) {
            return wide - (1L << 32);
        }
        return wide < xmax - HALF ? wide + (1L << 32) : wide;
    }

    @Override
    public String toString() {
        return xmin + ":" + xmax + ":" + inProgress.length + " in progress";
    }
}
