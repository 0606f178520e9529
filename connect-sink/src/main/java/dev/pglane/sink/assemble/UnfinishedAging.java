package dev.pglane.sink.assemble;

import java.util.Map;
import java.util.TreeMap;
import org.apache.kafka.common.TopicPartition;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The clock by which copies that never complete are aged out: the number of END markers read.
 *
 * <p>Whatever the assembler holds pins its partitions' consumer offsets, so a copy whose END never comes (a
 * record with an xid or a generation no source run wrote, or undecodable records of such an xid) would pin
 * them for ever. Staleness (a later generation's START) catches a run's unfinished copies only when the next run
 * starts, which may be months away, and never a copy that claims a generation no run announced yet.
 *
 * <p>Why ENDs and not time or generations: the source writes a copy's END right after its last record unless it
 * streams the transaction, so when {@code maxEnds} ENDs have been read since a copy's last record without its END,
 * the marker topic would have to lag that record's partition by {@code maxEnds} transactions. The task pauses
 * partitions that run ahead of the marker topic long before that ({@code buffer.max.transactions} bounds the copies
 * it holds), so a real copy never gets there. Time would misjudge a backlog read at full speed, or a source that
 * is merely idle; a count of ENDs does neither. A streamed copy of an announced generation may run for hours and
 * is aged out only by staleness; a copy whose generation the marker topic has not announced is aged out the same
 * way as one that is not streamed, since its run wrote START before anything else.
 */
final class UnfinishedAging {
    private static final Logger log = LoggerFactory.getLogger(UnfinishedAging.class);
    /** Abandonments logged one by one per sweep; the rest are summed in one line (a flood of forged xids). */
    private static final int DETAILED_WARNINGS = 10;

    private final long maxEnds;
    private final long sweepEvery;
    private long ends;
    private int warnedThisSweep;
    private long unwarnedThisSweep;

    /** @param maxEnds ENDs read after a copy's last record past which it is abandoned; positive */
    UnfinishedAging(long maxEnds) {
        if (maxEnds <= 0) {
            throw new IllegalArgumentException("maxEnds must be positive: " + maxEnds);
        }
        this.maxEnds = maxEnds;
        this.sweepEvery = Math.max(1, maxEnds / 16);
    }

    /** ENDs read so far: the time stamp of a copy's growth. */
    long ends() {
        return ends;
    }

    /** Counts one END; true when it is time to look for abandoned copies (every sixteenth of the bound). */
    boolean countEnd() {
        ends++;
        return ends % sweepEvery == 0;
    }

    /** Whether something that last grew at {@code lastGrowth} has waited {@code maxEnds} ENDs. */
    boolean expired(long lastGrowth) {
        return ends - lastGrowth >= maxEnds;
    }

    long maxEnds() {
        return maxEnds;
    }

    /** Starts a sweep: its first abandonments are logged one by one. */
    void startSweep() {
        warnedThisSweep = 0;
        unwarnedThisSweep = 0;
    }

    /** Logs one abandoned copy or xid, in detail while the sweep has logged few. */
    void warn(String what, long records, String positions, String why) {
        if (warnedThisSweep >= DETAILED_WARNINGS) {
            unwarnedThisSweep++;
            return;
        }
        warnedThisSweep++;
        log.warn(
                "Abandoned {}: {} after {} END markers since its last record; its {} record(s) at {} no longer hold"
                        + " back consumer offsets and are dropped (abandoned-transactions-total)",
                what,
                why,
                maxEnds,
                records,
                positions);
    }

    /** Ends a sweep, summing what it did not log one by one. */
    void endSweep() {
        if (unwarnedThisSweep > 0) {
            log.warn(
                    "Abandoned {} more transaction(s) without END in the same way (abandoned-transactions-total)",
                    unwarnedThisSweep);
        }
    }

    /** {@code topic-partition@first..last} per partition, in partition order. */
    static String positions(Map<TopicPartition, Long> lowest, Map<TopicPartition, Long> highest) {
        Map<String, String> sorted = new TreeMap<>();
        lowest.forEach((partition, first) -> {
            long last = highest.getOrDefault(partition, first);
            sorted.put(partition.toString(), partition + "@" + (first == last ? first : first + ".." + last));
        });
        return String.join(", ", sorted.values());
    }
}
