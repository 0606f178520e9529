package dev.pglane.sink.progress;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.NavigableMap;
import java.util.TreeMap;
import java.util.stream.Stream;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.common.TopicPartition;

/**
 * Which consumer offsets the sink may commit: never past a record (or END marker) of a transaction
 * that is not durable on the target yet, so that after a crash Kafka redelivers everything the target
 * may have lost, and the stored progress skips what it kept. Only the task thread uses it.
 */
public final class OffsetLedger {
    /** Released transactions by apply sequence → the first offset of their records per partition. */
    private final NavigableMap<Long, Map<TopicPartition, Long>> notDurable = new TreeMap<>();
    /** Complete transactions the failed pipeline never took. */
    private final List<Map<TopicPartition, Long>> notSubmitted = new ArrayList<>();

    /** A transaction entered the scheduler with {@code sequence}. */
    public void released(long sequence, Map<TopicPartition, Long> firstOffsets) {
        notDurable.put(sequence, firstOffsets);
    }

    /**
     * A complete transaction that never reached the scheduler (the pipeline failed first): its records
     * stay needed until {@link #clear()}, when the restarted pipeline has rewound to them.
     */
    public void unsubmitted(Map<TopicPartition, Long> firstOffsets) {
        notSubmitted.add(firstOffsets);
    }

    /** Every transaction up to {@code sequence} is committed and durable. */
    public void durableThrough(long sequence) {
        notDurable.headMap(sequence, true).clear();
    }

    /** Forgets all sequences, when the scheduler they belong to is replaced. */
    public void clear() {
        notDurable.clear();
        notSubmitted.clear();
    }

    /**
     * Per partition, the lowest offset still needed: of released transactions not durable yet and of
     * what the assembler holds ({@code pending}).
     */
    public Map<TopicPartition, Long> floors(Map<TopicPartition, Long> pending) {
        Map<TopicPartition, Long> floors = new HashMap<>(pending);
        Stream.concat(notDurable.values().stream(), notSubmitted.stream())
                .forEach(offsets -> offsets.forEach((partition, offset) -> floors.merge(partition, offset, Math::min)));
        return floors;
    }

    /**
     * The offsets to commit: Connect's consumed positions, held back to {@code floors} where a floor is
     * lower. A floor is the offset of a record still needed, which is the next offset to read again.
     */
    public static Map<TopicPartition, OffsetAndMetadata> committable(
            Map<TopicPartition, OffsetAndMetadata> consumed, Map<TopicPartition, Long> floors) {
        Map<TopicPartition, OffsetAndMetadata> result = new HashMap<>();
        consumed.forEach((partition, position) -> {
            Long floor = floors.get(partition);
            result.put(partition, floor != null && floor < position.offset() ? new OffsetAndMetadata(floor) : position);
        });
        return result;
    }
}
