package dev.pglane.sink.assemble;

import java.util.HashMap;
import java.util.Map;
import java.util.Set;

/**
 * A copy's received records per topic, and per (subtransaction, topic) for streamed records, so an
 * ABORT of a subtransaction can take its records out of the counts that END announces without them.
 */
final class RecordCounts {
    private final Map<String, Long> perTopic = new HashMap<>();
    private final Map<Long, Map<String, Long>> perSubxid = new HashMap<>();

    void add(Long subxid, String topic) {
        perTopic.merge(topic, 1L, Long::sum);
        if (subxid != null) {
            perSubxid.computeIfAbsent(subxid, ignored -> new HashMap<>()).merge(topic, 1L, Long::sum);
        }
    }

    long of(String topic) {
        return perTopic.getOrDefault(topic, 0L);
    }

    Set<String> topics() {
        return perTopic.keySet();
    }

    /** Removes the records of {@code subxid}; returns how many there were. */
    long cancel(long subxid) {
        Map<String, Long> cancelled = perSubxid.remove(subxid);
        if (cancelled == null) {
            return 0;
        }
        long total = 0;
        for (Map.Entry<String, Long> topic : cancelled.entrySet()) {
            perTopic.merge(topic.getKey(), -topic.getValue(), Long::sum);
            total += topic.getValue();
        }
        return total;
    }
}
