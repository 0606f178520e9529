package dev.pglane.sink.assemble;

import dev.pglane.wire.Lsn;
import dev.pglane.wire.envelope.ChangeEvent;
import dev.pglane.wire.envelope.SourceInfo;
import dev.pglane.wire.envelope.TransactionInfo;
import dev.pglane.wire.marker.DataCollectionCount;
import dev.pglane.wire.marker.Marker;
import java.io.IOException;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.function.Predicate;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.connect.errors.ConnectException;

/**
 * One buffered copy (xid, generation): its records so far (in memory, or in spill files once it grew
 * too big), their counts per topic, the subtransactions aborted in it, and its END once that arrived.
 */
final class HeldCopy {
    private static final Comparator<ChangeRecord> BY_TOTAL_ORDER =
            Comparator.comparingLong(record -> record.event().transaction().totalOrder());

    /** Records an error names one by one; beyond, it names the offsets they span. */
    private static final int NAMED_RECORDS = 20;

    private final CopyKey key;
    private final List<ChangeRecord> memory = new ArrayList<>();
    private long memoryBytes;
    private SpillFiles spill;
    private boolean reportedOverCap;
    private long count;
    private long sizeBytes;
    private final SeenOrders seen = new SeenOrders();
    private final Set<Long> cancelledSubxids = new HashSet<>();
    private final RecordCounts counts = new RecordCounts();
    private final Map<TopicPartition, Long> lowestOffsets = new HashMap<>();
    private final Map<TopicPartition, Long> highestOffsets = new HashMap<>();
    /** {@link UnfinishedAging#ends()} when the copy last grew: how long it has waited for its END. */
    private long lastGrowth;
    /** Whether a record or an ABORT of it names a subtransaction: the source streams it before its commit. */
    private boolean streamed;

    private Marker.End end;
    private long endOffset;
    private Map<String, Long> expected = Map.of();

    HeldCopy(CopyKey key, long ends) {
        this.key = key;
        this.lastGrowth = ends;
    }

    CopyKey key() {
        return key;
    }

    /**
     * Why {@code record} is not taken, or null if it is.
     *
     * @throws ConnectException naming the record if another change already holds its place in the transaction
     */
    String rejection(ChangeRecord record) {
        TransactionInfo transaction = record.event().transaction();
        if (transaction.subxid() != null && cancelledSubxids.contains(transaction.subxid())) {
            return "aborted";
        }
        return switch (seen.add(transaction.totalOrder(), fingerprint(record.event()))) {
            case NEW -> null;
            case REPEATED -> "duplicate";
            case CLASHING ->
                throw new ConnectException("Record " + record.position() + " ("
                        + record.event().op()
                        + " of " + record.event().source().schema() + "."
                        + record.event().source().table() + " at LSN "
                        + record.event().source().lsn() + ") is change " + transaction.totalOrder() + " of " + key
                        + ", whose change " + transaction.totalOrder()
                        + " the sink already holds and is another one: the"
                        + " source numbered the transaction's changes differently when it sent them again (Debezium's"
                        + " connector can, restarted in the middle of a transaction), so the transaction cannot be rebuilt"
                        + " whole from these topics. The sink stops rather than apply part of it; the tables it touches"
                        + " need a fresh copy from the source");
        };
    }

    /** What tells two changes apart that claim the same place: where in the WAL, which table, which operation. */
    private static int fingerprint(ChangeEvent event) {
        SourceInfo source = event.source();
        return Objects.hash(source.lsn().asLong(), source.schema(), source.table(), event.op());
    }

    /**
     * Adds an accepted record.
     *
     * @throws ConnectException if its topic now has more records than the END announced
     */
    void add(ChangeRecord record, long ends) throws IOException {
        String topic = record.partition().topic();
        Long subxid = record.event().transaction().subxid();
        counts.add(subxid, topic);
        streamed |= subxid != null;
        lastGrowth = ends;
        lowestOffsets.merge(record.partition(), record.offset(), Math::min);
        highestOffsets.merge(record.partition(), record.offset(), Math::max);
        count++;
        sizeBytes += record.sizeBytes();
        if (spill == null) {
            memory.add(record);
            memoryBytes += record.sizeBytes();
        } else {
            spill.append(record);
        }
        if (end != null && counts.of(topic) > expected.getOrDefault(topic, 0L)) {
            throw tooMany(record.position(), topic);
        }
    }

    /**
     * Cancels the records of an aborted subtransaction, held and to come.
     *
     * @return how many held records it cancelled
     */
    long cancel(long subxid, TopicPartition markerPartition, long markerOffset) {
        // the ABORT must be read again after a restart as long as records it cancels may be
        lowestOffsets.merge(markerPartition, markerOffset, Math::min);
        highestOffsets.merge(markerPartition, markerOffset, Math::max);
        streamed = true;
        if (!cancelledSubxids.add(subxid)) {
            return 0;
        }
        long cancelled = counts.cancel(subxid);
        count -= cancelled;
        memory.removeIf(record -> {
            boolean match =
                    Long.valueOf(subxid).equals(record.event().transaction().subxid());
            if (match) {
                memoryBytes -= record.sizeBytes();
                sizeBytes -= record.sizeBytes();
            }
            return match;
        });
        return cancelled;
    }

    /**
     * Takes the copy's END.
     *
     * @throws ConnectException if a topic already has more records than it announces
     */
    void end(Marker.End marker, TopicPartition markerPartition, long markerOffset) {
        this.end = marker;
        this.endOffset = markerOffset;
        lowestOffsets.merge(markerPartition, markerOffset, Math::min);
        Map<String, Long> perTopic = new HashMap<>();
        for (DataCollectionCount collection : marker.dataCollections()) {
            perTopic.merge(collection.topic(), collection.eventCount(), Long::sum);
        }
        this.expected = perTopic;
        for (String topic : counts.topics()) {
            if (counts.of(topic) > expected.getOrDefault(topic, 0L)) {
                throw tooMany(markerPartition + "@" + markerOffset, topic);
            }
        }
    }

    boolean hasEnd() {
        return end != null;
    }

    Lsn endLsn() {
        return end.endLsn();
    }

    /** True once the END arrived and every counted topic has its records (undecodable ones included). */
    boolean complete(Predicate<String> countedTopic, PoisonCredits poison) {
        return end != null && expected.entrySet().stream().noneMatch(topic -> lacks(topic, countedTopic, poison));
    }

    /** The counted topics whose records, as the END counts them, have not all arrived; none before the END. */
    Set<String> missingTopics(Predicate<String> countedTopic, PoisonCredits poison) {
        Set<String> missing = new HashSet<>();
        for (Map.Entry<String, Long> topic : expected.entrySet()) {
            if (lacks(topic, countedTopic, poison)) {
                missing.add(topic.getKey());
            }
        }
        return missing;
    }

    /** The counted topics its END announces records on (none before the END). */
    Set<String> announcedTopics(Predicate<String> countedTopic) {
        Set<String> topics = new HashSet<>();
        for (String topic : expected.keySet()) {
            if (countedTopic.test(topic)) {
                topics.add(topic);
            }
        }
        return topics;
    }

    private boolean lacks(Map.Entry<String, Long> topic, Predicate<String> countedTopic, PoisonCredits poison) {
        String name = topic.getKey();
        return countedTopic.test(name) && counts.of(name) + poison.credits(key.xid(), name) < topic.getValue();
    }

    long memoryBytes() {
        return memoryBytes;
    }

    /**
     * Whether the source may legitimately hold its END back for long: a streamed transaction's records come while
     * it runs, hours before its commit perhaps. A copy that is not streamed has its END written right after its
     * last record.
     */
    boolean streamed() {
        return streamed;
    }

    /** {@link UnfinishedAging#ends()} when a record last came for this copy (or when it opened). */
    long lastGrowth() {
        return lastGrowth;
    }

    /** Where its records and markers are: {@code topic-partition@first..last}, one per partition. */
    String positions() {
        return UnfinishedAging.positions(lowestOffsets, highestOffsets);
    }

    long count() {
        return count;
    }

    boolean spilled() {
        return spill != null;
    }

    /** True the first time this copy's spill files hold more than {@code maxBytes}, false before and after. */
    boolean firstOverCap(long maxBytes) {
        if (reportedOverCap || spill == null || spill.bytes() <= maxBytes) {
            return false;
        }
        reportedOverCap = true;
        return true;
    }

    long spilledBytes() {
        return spill == null ? 0 : spill.bytes();
    }

    /**
     * Moves the in-memory records to spill files; later records go there directly.
     *
     * @return the in-memory bytes freed
     */
    long spill(SpillFiles files) throws IOException {
        memory.sort(BY_TOTAL_ORDER);
        files.writeSorted(memory);
        long freed = memoryBytes;
        spill = files;
        memory.clear();
        memoryBytes = 0;
        return freed;
    }

    /**
     * Takes over what {@code replaced}, the copy this one is released in place of, needs read again after a restart:
     * its END (and any ABORT of it) comes earlier on the marker topic than this copy's, before the END of transactions
     * that follow it in commit order. A restart that read from this copy's END only would meet theirs first.
     */
    void readAgainWith(HeldCopy replaced) {
        replaced.lowerFloors(lowestOffsets);
    }

    /** Lowers {@code floors} to the offsets this copy needs read again after a restart. */
    void lowerFloors(Map<TopicPartition, Long> floors) {
        lowestOffsets.forEach((partition, offset) -> floors.merge(partition, offset, Math::min));
    }

    /** The complete transaction; the copy hands its records (and spill files) over to it. */
    SourceTransaction release(PoisonCredits poison) throws IOException {
        Map<TopicPartition, Long> firstOffsets = new HashMap<>(lowestOffsets);
        poison.lowerTo(key.xid(), firstOffsets);
        TransactionChanges changes;
        if (spill == null) {
            memory.sort(BY_TOTAL_ORDER);
            changes = new InMemoryChanges(memory, sizeBytes);
        } else {
            spill.finishWriting();
            changes = new SpilledChanges(spill, cancelledSubxids, count, sizeBytes);
        }
        return new SourceTransaction(end, endOffset, firstOffsets, changes);
    }

    /** Drops the records and deletes any spill files. */
    void discard() {
        memory.clear();
        memoryBytes = 0;
        if (spill != null) {
            spill.delete();
        }
    }

    private ConnectException tooMany(String position, String topic) {
        return new ConnectException("record " + position + " of " + key + ": " + counts.of(topic)
                + " records on topic " + topic + " (" + positionsOn(topic) + ") but its END (end LSN " + end.endLsn()
                + ") announced " + expected.getOrDefault(topic, 0L));
    }

    /**
     * Where the copy's records on {@code topic} are, so that an error about their number names the one too many:
     * each one while they are in memory (at most {@value #NAMED_RECORDS}), else the offsets they span per partition.
     */
    private String positionsOn(String topic) {
        if (spill == null && count <= NAMED_RECORDS) {
            return String.join(
                    ", ",
                    memory.stream()
                            .filter(record -> record.partition().topic().equals(topic))
                            .map(ChangeRecord::position)
                            .toList());
        }
        Map<TopicPartition, Long> lowest = new HashMap<>(lowestOffsets);
        lowest.keySet().removeIf(partition -> !partition.topic().equals(topic));
        return UnfinishedAging.positions(lowest, highestOffsets);
    }
}
