package dev.pglane.local.kafka;

import dev.pglane.wire.envelope.ChangeEvent;
import dev.pglane.wire.envelope.Op;
import dev.pglane.wire.marker.DataCollectionCount;
import dev.pglane.wire.marker.Marker;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.TreeMap;
import java.util.stream.Collectors;

/**
 * The records of one copy (xid, generation) of a transaction received so far, minus those of aborted
 * subtransactions; records arrive from several partitions in any order, so they are kept by {@code total_order}.
 */
final class TransactionCopy {
    private final CopyId id;
    private final TreeMap<Long, ChangeEvent> byOrder = new TreeMap<>();
    // kept up to date on every change: recounting on each arrival would make a large transaction quadratic
    private final Map<String, Long> counts = new TreeMap<>();
    private final Set<Long> cancelledSubxids = new HashSet<>();

    TransactionCopy(CopyId id) {
        this.id = id;
    }

    /**
     * Adds a record unless its subtransaction was aborted. The same record twice (a redelivery) is kept once.
     *
     * @throws IllegalStateException if a different record already holds its {@code total_order}
     */
    void add(ChangeEvent event) {
        if (isCancelled(event)) {
            return;
        }
        long order = event.transaction().totalOrder();
        ChangeEvent earlier = byOrder.putIfAbsent(order, event);
        if (earlier == null) {
            counts.merge(dataCollection(event), 1L, Long::sum);
        } else if (!sameContent(earlier, event)) {
            throw new IllegalStateException(
                    id + ": two different records at total_order " + order + ":\n  " + earlier + "\n  " + event);
        }
    }

    /** ABORT of a subtransaction: drops its records, those received and those still to come. */
    void cancel(long subxid) {
        cancelledSubxids.add(subxid);
        Iterator<ChangeEvent> events = byOrder.values().iterator();
        while (events.hasNext()) {
            ChangeEvent event = events.next();
            if (isCancelled(event)) {
                events.remove();
                counts.merge(dataCollection(event), -1L, (a, b) -> a + b == 0 ? null : a + b);
            }
        }
    }

    private boolean isCancelled(ChangeEvent event) {
        Long subxid = event.transaction().subxid();
        return subxid != null && cancelledSubxids.contains(subxid);
    }

    /**
     * Compares what END announced with what arrived.
     *
     * @return true when every announced record is here
     * @throws IllegalStateException when more records arrived than END announced, for any table
     */
    boolean isCompleteFor(Marker.End end) {
        Map<String, Long> expected = end.dataCollections().stream()
                .collect(Collectors.toMap(DataCollectionCount::dataCollection, DataCollectionCount::eventCount));
        Map<String, Long> received = countsByCollection();
        for (Map.Entry<String, Long> count : received.entrySet()) {
            long announced = expected.getOrDefault(count.getKey(), 0L);
            if (count.getValue() > announced) {
                throw new IllegalStateException(id + ": " + count.getValue() + " records of " + count.getKey()
                        + " arrived but END announced " + announced + " (" + end + ")");
            }
        }
        return received.equals(expected) && byOrder.size() == end.eventCount();
    }

    Map<String, Long> countsByCollection() {
        return counts;
    }

    /** The records in stream order. */
    List<ChangeEvent> changes() {
        return new ArrayList<>(byOrder.values());
    }

    int size() {
        return byOrder.size();
    }

    /** The END {@code data_collection} a record counts under: {@code schema.table}, or {@code messages}. */
    static String dataCollection(ChangeEvent event) {
        return event.op() == Op.MESSAGE
                ? DataCollectionCount.MESSAGES
                : DataCollectionCount.of(event.source().schema(), event.source().table());
    }

    /** Equal apart from the processing time, which a re-sent record may not share. */
    private static boolean sameContent(ChangeEvent a, ChangeEvent b) {
        return a.op() == b.op()
                && Objects.equals(a.before(), b.before())
                && Objects.equals(a.after(), b.after())
                && a.source().equals(b.source())
                && a.transaction().equals(b.transaction())
                && a.unchangedToast().equals(b.unchangedToast())
                && a.textValues().equals(b.textValues())
                && Objects.equals(a.truncate(), b.truncate())
                && Objects.equals(a.message(), b.message());
    }

    /** The {@code total_order} values below {@code last} that have not arrived, as ranges (the first few). */
    String missingUpTo(long last) {
        StringBuilder gaps = new StringBuilder();
        long expected = 1;
        int shown = 0;
        for (long order : byOrder.headMap(last + 1).keySet()) {
            if (order > expected && shown++ < 5) {
                gaps.append(expected).append("..").append(order - 1).append(' ');
            }
            expected = order + 1;
        }
        if (expected <= last && shown < 5) {
            gaps.append(expected).append("..").append(last);
        }
        return gaps.toString().trim();
    }

    @Override
    public String toString() {
        return id + " with " + byOrder.size() + " records " + countsByCollection();
    }
}
