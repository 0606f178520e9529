package dev.pglane.sink.admit;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;
import java.util.stream.Stream;

/**
 * The other sinks that apply changes of the same source to the same target, as their progress rows record them: each
 * with its table group, or none for a sink that applies whole transactions. Read when the apply pipeline opens; a sink
 * added later is known from this task's next start. Two sinks that write one topic's table each apply it in their own
 * time, so the table can step back to an older state while one trails the other; a topic no sink applies reaches no
 * table of the target.
 */
public final class NeighbourSinks {
    /** Where the neighbours are unknown: the replication-origin store keeps no table groups. */
    public static final NeighbourSinks UNKNOWN = new NeighbourSinks(null, List.of());

    private final String registry;
    private final List<Neighbour> sinks;

    /**
     * @param sink a sink's name
     * @param group the topics it applies; null when it applies whole transactions
     */
    public record Neighbour(String sink, ConsumedTopics group) {
        public boolean applies(String topic) {
            return group == null || group.includes(topic);
        }

        @Override
        public String toString() {
            return sink + " (" + (group == null ? "whole transactions" : group) + ")";
        }
    }

    /**
     * @param registry where the groups are recorded, for messages (the progress table and the source)
     * @param sinks every other sink recorded there
     */
    public NeighbourSinks(String registry, List<Neighbour> sinks) {
        this.registry = registry;
        this.sinks = List.copyOf(sinks);
    }

    public boolean known() {
        return registry != null;
    }

    /** The neighbours that apply {@code topic}. */
    public List<Neighbour> applying(String topic) {
        return sinks.stream().filter(n -> n.applies(topic)).toList();
    }

    /**
     * What each neighbour applies of {@code group}, as far as names and patterns tell up front: every topic for a sink
     * of whole transactions, the listed topics the other side's list or regex takes in. Two regexes cannot be compared
     * without the topics' names; the task warns of those when it meets the topic.
     *
     * @param everyGroups the topics every group consumes and none applies to a table: the source's marker and
     *     messages topics
     * @return per neighbour that overlaps, the topics both apply (or {@code every topic}), in neighbour order
     */
    public Map<Neighbour, String> overlapping(ConsumedTopics group, Set<String> everyGroups) {
        Map<Neighbour, String> overlaps = new LinkedHashMap<>();
        for (Neighbour other : sinks) {
            if (other.group() == null) {
                overlaps.put(other, "every topic");
                continue;
            }
            Stream<String> candidates;
            if (!group.isRegex()) {
                candidates = group.listed().stream().filter(other::applies);
            } else if (!other.group().isRegex()) {
                candidates = other.group().listed().stream().filter(group::includes);
            } else {
                candidates = Stream.empty();
            }
            List<String> shared =
                    candidates.filter(topic -> !everyGroups.contains(topic)).toList();
            if (!shared.isEmpty()) {
                overlaps.put(other, String.join(", ", shared));
            }
        }
        return overlaps;
    }

    public List<Neighbour> all() {
        return sinks;
    }

    @Override
    public String toString() {
        if (!known()) {
            return "other sinks unknown";
        }
        return sinks.isEmpty()
                ? "no other sink recorded in " + registry
                : "sinks recorded in " + registry + ": "
                        + sinks.stream().map(Neighbour::toString).collect(Collectors.joining(", "));
    }
}
