package dev.pglane.sink.assemble;

/** What the {@link TransactionAssembler} reports to metrics; called on the Connect task thread. */
public interface AssemblerListener {

    /** Does nothing. */
    AssemblerListener NONE = new AssemblerListener() {
        @Override
        public void spilled(long xid, long bytes) {}

        @Override
        public void dropped(String reason, long records) {}
    };

    /** A copy of {@code xid} holding {@code bytes} of records moved from memory to spill files. */
    void spilled(long xid, long bytes);

    /** {@code records} records were discarded, for {@code reason} (duplicate, stale, aborted, ...). */
    void dropped(String reason, long records);

    /**
     * The spill files of one copy alone hold more than {@code maxBytes} (spill.max.bytes): reported once per
     * copy. The sink lets it complete anyway, since nothing after it in commit order can apply first.
     */
    default void spilledOverCap(long xid, long generation, long bytes, long maxBytes) {}

    /**
     * The copy of {@code xid} from generation {@code lostGeneration} had its END but lost records with its
     * run; the copy the next run sent, of {@code resentGeneration}, is applied in its place.
     */
    default void resent(long xid, long lostGeneration, long resentGeneration) {}

    /**
     * A copy of {@code xid} without END, or its undecodable records, waited past the bound on unfinished
     * transactions and were dropped, {@code records} of them (already told to {@link #dropped} for a copy).
     */
    default void abandoned(long xid, long records) {}
}
