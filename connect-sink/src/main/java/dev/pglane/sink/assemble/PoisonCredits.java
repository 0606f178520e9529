package dev.pglane.sink.assemble;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.LongPredicate;
import org.apache.kafka.common.TopicPartition;

/**
 * Records that could not be decoded (sent to the dead letter queue), per xid and topic.
 *
 * <p>Such a record has no readable generation or {@code total_order}, only its key's xid, so it is
 * credited to whichever copy of that xid completes: a copy is complete on a topic when its decoded
 * records plus these credits reach the END's count. An undecodable change is undecodable in every
 * generation, so surplus credits (from a stale copy) are harmless and cleared with the xid. Their
 * offsets stay in the pending floors until then, so a restart reads them again.
 */
final class PoisonCredits {
    private final Map<Long, Pool> byXid = new HashMap<>();

    private static final class Pool {
        final Map<String, Long> perTopic = new HashMap<>();
        final Map<TopicPartition, Long> lowestOffsets = new HashMap<>();
        final Map<TopicPartition, Long> highestOffsets = new HashMap<>();
        final Set<Position> seen = new HashSet<>();
        long lastGrowth;
    }

    /** The credits of one xid, aged out: how many, and where they were. */
    record Abandoned(long xid, long records, String positions) {}

    private record Position(TopicPartition partition, long offset) {}

    /** Credits one record; false if this record (same partition and offset) was already credited. */
    boolean add(long xid, TopicPartition partition, long offset, long ends) {
        Pool pool = byXid.computeIfAbsent(xid, ignored -> new Pool());
        if (!pool.seen.add(new Position(partition, offset))) {
            return false;
        }
        pool.perTopic.merge(partition.topic(), 1L, Long::sum);
        pool.lowestOffsets.merge(partition, offset, Math::min);
        pool.highestOffsets.merge(partition, offset, Math::max);
        pool.lastGrowth = ends;
        return true;
    }

    /**
     * Forgets the credits of every xid that {@code expired} says waited too long for its END (given the ENDs
     * counter when its last credit came) and that no copy holds ({@code heldXid}).
     */
    List<Abandoned> abandon(LongPredicate expired, LongPredicate heldXid) {
        List<Abandoned> abandoned = new ArrayList<>();
        for (Iterator<Map.Entry<Long, Pool>> it = byXid.entrySet().iterator(); it.hasNext(); ) {
            Map.Entry<Long, Pool> entry = it.next();
            Pool pool = entry.getValue();
            if (expired.test(pool.lastGrowth) && !heldXid.test(entry.getKey())) {
                abandoned.add(new Abandoned(
                        entry.getKey(),
                        pool.seen.size(),
                        UnfinishedAging.positions(pool.lowestOffsets, pool.highestOffsets)));
                it.remove();
            }
        }
        return abandoned;
    }

    /** Undecodable records of {@code xid} on {@code topic}. */
    long credits(long xid, String topic) {
        Pool pool = byXid.get(xid);
        return pool == null ? 0 : pool.perTopic.getOrDefault(topic, 0L);
    }

    /** Lowers {@code floors} to the offsets of the credited records of {@code xid}. */
    void lowerTo(long xid, Map<TopicPartition, Long> floors) {
        Pool pool = byXid.get(xid);
        if (pool != null) {
            pool.lowestOffsets.forEach((partition, offset) -> floors.merge(partition, offset, Math::min));
        }
    }

    /** Lowers {@code floors} to the offsets of every credited record. */
    void lowerAll(Map<TopicPartition, Long> floors) {
        byXid.keySet().forEach(xid -> lowerTo(xid, floors));
    }

    /** Forgets the credits of {@code xid}: its transaction was released, applied or aborted. */
    void clear(long xid) {
        byXid.remove(xid);
    }
}
