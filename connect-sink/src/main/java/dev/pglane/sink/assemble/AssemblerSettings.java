package dev.pglane.sink.assemble;

import java.util.Objects;
import java.util.function.Predicate;

/**
 * How the {@link TransactionAssembler} buffers.
 *
 * @param maxBytes in-memory bytes of buffered copies above which the largest copies are spilled
 * @param spillArea where spill files go
 * @param spillMaxBytes spill.max.bytes: a copy whose spill files alone exceed it is reported, once
 * @param countedTopic true for the topics the sink consumes: an END's per-topic counts of any other
 *     topic are not awaited, since those records never arrive
 * @param abandonAfterEnds END markers read after a copy's last record past which a copy without END is abandoned
 *     (see {@link UnfinishedAging})
 */
public record AssemblerSettings(
        long maxBytes, SpillArea spillArea, long spillMaxBytes, Predicate<String> countedTopic, long abandonAfterEnds) {
    /** ENDs after which an unfinished copy is abandoned, for {@code buffer.max.transactions} of 10,000. */
    public static final long DEFAULT_ABANDON_AFTER_ENDS = 100_000;

    public AssemblerSettings {
        if (maxBytes <= 0 || spillMaxBytes <= 0 || abandonAfterEnds <= 0) {
            throw new IllegalArgumentException("maxBytes, spillMaxBytes and abandonAfterEnds must be positive: "
                    + maxBytes + ", " + spillMaxBytes + ", " + abandonAfterEnds);
        }
        Objects.requireNonNull(spillArea, "spillArea");
        Objects.requireNonNull(countedTopic, "countedTopic");
    }

    /** Abandoning unfinished copies after {@link #DEFAULT_ABANDON_AFTER_ENDS} ENDs. */
    public AssemblerSettings(long maxBytes, SpillArea spillArea, long spillMaxBytes, Predicate<String> countedTopic) {
        this(maxBytes, spillArea, spillMaxBytes, countedTopic, DEFAULT_ABANDON_AFTER_ENDS);
    }

    /**
     * The bound for a task that holds at most {@code bufferMaxTransactions} copies: ten times as many ENDs, since
     * the marker topic cannot lag a change topic by more transactions than the task holds before it pauses that
     * topic's partitions.
     */
    public static long abandonAfterEnds(int bufferMaxTransactions) {
        return 10L * bufferMaxTransactions;
    }
}
