package dev.pglane.sink.assemble;

import dev.pglane.sink.progress.AppliedPosition;
import dev.pglane.wire.Lsn;
import dev.pglane.wire.envelope.ChangeEvent;
import dev.pglane.wire.envelope.EnvelopeSchemas;
import dev.pglane.wire.envelope.TransactionInfo;
import dev.pglane.wire.marker.Marker;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.NavigableMap;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.connect.errors.ConnectException;

/**
 * Turns decoded change records and markers into complete source transactions, released in commit
 * (END) order, following the discard rule of docs/wire-format.md §4–§5.
 *
 * <p>Records are grouped per copy (xid, generation). A copy is released once its END arrived and
 * every counted topic holds the END's count of its records; a complete copy waits behind an earlier
 * incomplete one, unless a later run sent that one again complete. Redelivered records, records of stale copies (no END before a later generation's
 * START), of aborted (sub)transactions and of transactions already applied are dropped, also when
 * they arrive after the marker that condemned them. Big copies spill to disk so that reading never
 * waits for memory.
 *
 * <p>Staleness is judged by the highest generation of any marker seen, not only of START: a run
 * writes START before anything else, so a marker of generation g proves that START(g) came before
 * it, even when the consumer resumed past that START.
 *
 * <p>Not thread-safe: only the Connect task thread calls it.
 */
public final class TransactionAssembler implements AutoCloseable {
    private static final String DUPLICATE = "duplicate";
    private static final String STALE = "stale";
    private static final String ABORTED = "aborted";
    private static final String APPLIED = "already applied";
    private static final String SUPERSEDED = "superseded by a later run's copy";
    private static final String ABANDONED = "abandoned without END";

    private final AssemblerSettings settings;
    private final AssemblerListener listener;
    private final EnvelopeSchemas envelopes = new EnvelopeSchemas();
    private final Map<CopyKey, HeldCopy> held = new HashMap<>();
    /**
     * How many held copies each generation has, kept with {@link #held}: {@link #newestGeneration} is asked on every
     * put while the partitions are skewed, with thousands of copies held.
     */
    private final NavigableMap<Long, Integer> heldGenerations = new TreeMap<>();

    private final ArrayDeque<CopyKey> endOrder = new ArrayDeque<>();
    private final FinishedCopies finished = new FinishedCopies(FinishedCopies.DEFAULT_CAPACITY);
    private final PoisonCredits poison = new PoisonCredits();
    private final UnfinishedAging aging;
    private AppliedPosition applied;
    /** The END LSN of the last released copy: a later copy ending at or before it is a duplicate. */
    private Lsn releasedThrough = Lsn.INVALID;

    private long maxGeneration = -1;

    private long bufferedBytes;

    public TransactionAssembler(AssemblerSettings settings, AppliedPosition applied, AssemblerListener listener) {
        this.settings = Objects.requireNonNull(settings, "settings");
        this.applied = Objects.requireNonNull(applied, "applied");
        this.listener = Objects.requireNonNull(listener, "listener");
        this.aging = new UnfinishedAging(settings.abandonAfterEnds());
    }

    /**
     * A decoded data record (any op, transactional messages included).
     *
     * @throws ConnectException naming the record if its copy now has more records than its END announced
     */
    public void addChange(ChangeRecord record) {
        TransactionInfo transaction = record.event().transaction();
        if (transaction == null) {
            listener.dropped("non-transactional", 1);
            return;
        }
        CopyKey key = new CopyKey(transaction.xid(), transaction.generation());
        String finishedReason = finished.reason(key);
        if (finishedReason != null) {
            listener.dropped(finishedReason, 1);
            return;
        }
        HeldCopy copy = held.get(key);
        if (copy == null && key.generation() < maxGeneration) {
            listener.dropped(STALE, 1);
            return;
        }
        if (copy == null) {
            copy = open(key);
        }
        String rejection = copy.rejection(record);
        if (rejection != null) {
            listener.dropped(rejection, 1);
            return;
        }
        long before = copy.memoryBytes();
        try {
            copy.add(record, aging.ends());
        } catch (IOException e) {
            throw spillFailure(copy, e);
        }
        bufferedBytes += copy.memoryBytes() - before;
        if (copy.spilled()) {
            reportOverCap(copy);
        }
        enforceLimit();
    }

    /**
     * An undecodable record, sent to the dead letter queue: the copy of {@code keyXid} that completes
     * may do so with one record fewer on its topic.
     */
    public void addPoison(TopicPartition partition, long offset, long keyXid) {
        boolean buffered = holdsXid(keyXid);
        if (!buffered && finished.anyOf(keyXid)) {
            listener.dropped(DUPLICATE, 1);
            return;
        }
        if (!poison.add(keyXid, partition, offset, aging.ends())) {
            listener.dropped(DUPLICATE, 1);
        }
    }

    /**
     * A marker from the marker topic, in its order.
     *
     * @throws ConnectException if an END announces fewer records than already arrived for its copy
     */
    public void addMarker(Marker marker, TopicPartition partition, long offset) {
        observeGeneration(marker.generation());
        if (marker instanceof Marker.End end) {
            onEnd(end, partition, offset);
            if (aging.countEnd()) {
                abandonUnfinished();
            }
        } else if (marker instanceof Marker.Abort abort) {
            onAbort(abort, partition, offset);
        }
        // BEGIN is optional and HEARTBEAT only confirms a position: neither changes a copy
    }

    /** Complete copies in END order, removed from the buffer; never one the applied position covers. */
    public List<SourceTransaction> drainReady() {
        List<SourceTransaction> ready = new ArrayList<>();
        while (!endOrder.isEmpty()) {
            CopyKey key = endOrder.peekFirst();
            HeldCopy copy = held.get(key);
            if (copy == null) {
                endOrder.pollFirst(); // dropped since its END arrived
            } else if (alreadyApplied(copy.endLsn())) {
                endOrder.pollFirst();
                discard(copy, APPLIED);
            } else if (copy.complete(settings.countedTopic(), poison)) {
                endOrder.pollFirst();
                ready.add(release(copy));
            } else {
                HeldCopy resent = resentComplete(copy);
                if (resent == null) {
                    break;
                }
                endOrder.pollFirst();
                // the released copy holds consumer offsets back to the stuck copy's END: transactions after it
                // in commit order may have their END between the two, and a restart must not read theirs first
                resent.readAgainWith(copy);
                discard(copy, SUPERSEDED);
                listener.resent(key.xid(), key.generation(), resent.key().generation());
                ready.add(release(resent));
            }
        }
        return ready;
    }

    /**
     * A later run's complete copy of the same transaction, to release in place of {@code stuck}. A
     * copy can have its END and still miss records for good: a run killed with records in its
     * producer's buffer loses them, while its END, sent on another partition, may have reached Kafka.
     * The source's offset never passed the lost records, so the next run sends the whole transaction
     * again; both copies are the same committed transaction (same xid and end LSN).
     *
     * @return the later complete copy, or {@code null} if there is none (yet)
     */
    private HeldCopy resentComplete(HeldCopy stuck) {
        CopyKey key = stuck.key();
        if (key.generation() >= maxGeneration) {
            return null;
        }
        return held.values().stream()
                .filter(other -> other.key().xid() == key.xid()
                        && other.key().generation() > key.generation()
                        && other.hasEnd()
                        && other.endLsn().equals(stuck.endLsn())
                        && other.complete(settings.countedTopic(), poison))
                .findFirst()
                .orElse(null);
    }

    /** The applied position was reloaded: drop the buffered copies it covers. */
    public void advanceApplied(AppliedPosition applied) {
        this.applied = Objects.requireNonNull(applied, "applied");
        List<HeldCopy> covered = held.values().stream()
                .filter(copy -> copy.hasEnd() && alreadyApplied(copy.endLsn()))
                .toList();
        covered.forEach(copy -> discard(copy, APPLIED));
    }

    /**
     * What the next transaction in commit order waits for, as {@link #drainReady()} left it: its END, when
     * no END waits at the head, or the records the head END announces on some topics. A later run may
     * send that transaction again, END included (see {@code resentComplete}), so once one started,
     * markers are awaited too, and the records on every topic the END announces: the later copy needs
     * all of them, also those on topics where the head's own copy is complete. Pausing those (as the
     * flow control does with partitions nothing waits for) would leave the later copy incomplete for
     * good, and the sink stalled behind it.
     */
    public Awaited awaited() {
        CopyKey headKey = endOrder.peekFirst();
        HeldCopy head = headKey == null ? null : held.get(headKey);
        if (head == null) {
            return Awaited.END;
        }
        boolean resendPossible = headKey.generation() < newestGeneration();
        return new Awaited(
                resendPossible,
                resendPossible
                        ? head.announcedTopics(settings.countedTopic())
                        : head.missingTopics(settings.countedTopic(), poison));
    }

    /**
     * The next transaction in commit order if its END arrived but some of its records have not, as
     * {@link #drainReady()} left it; empty otherwise (no END waiting, or nothing missing).
     */
    public Optional<WaitingHead> waitingHead() {
        CopyKey headKey = endOrder.peekFirst();
        HeldCopy head = headKey == null ? null : held.get(headKey);
        if (head == null || !head.hasEnd()) {
            return Optional.empty();
        }
        Set<String> missing = head.missingTopics(settings.countedTopic(), poison);
        return missing.isEmpty()
                ? Optional.empty()
                : Optional.of(new WaitingHead(headKey.xid(), headKey.generation(), head.endLsn(), missing));
    }

    /**
     * Per partition, the lowest offset of a record or marker still needed by a copy not yet released
     * (records, its END, ABORTs of its subtransactions, undecodable records): consumer offsets must
     * not pass it, or a restart would miss it.
     */
    public Map<TopicPartition, Long> pendingFloors() {
        Map<TopicPartition, Long> floors = new HashMap<>();
        held.values().forEach(copy -> copy.lowerFloors(floors));
        poison.lowerAll(floors);
        return floors;
    }

    /** In-memory bytes of the held copies (spilled records not counted). */
    public long bufferedBytes() {
        return bufferedBytes;
    }

    /** Copies held, complete or not, in memory or spilled. */
    public int bufferedTransactions() {
        return held.size();
    }

    /** Drops every held copy and deletes its spill files; released transactions keep theirs. */
    @Override
    public void close() {
        held.values().forEach(HeldCopy::discard);
        held.clear();
        heldGenerations.clear();
        endOrder.clear();
        bufferedBytes = 0;
    }

    /** A heap estimate of a decoded change, for {@link ChangeRecord#sizeBytes()}. */
    public static long estimateSize(ChangeEvent event) {
        return ConnectValueSizes.estimate(event);
    }

    private void observeGeneration(long generation) {
        if (generation <= maxGeneration) {
            return;
        }
        maxGeneration = generation;
        List<HeldCopy> stale = held.values().stream()
                .filter(copy -> copy.key().generation() < generation && !copy.hasEnd())
                .toList();
        stale.forEach(copy -> discard(copy, STALE));
    }

    /**
     * The highest generation of any marker or held copy: a later run's records can come before its markers. Not a
     * maximum kept over time: a record claiming a generation no run announced must not count once it is gone.
     */
    private long newestGeneration() {
        return heldGenerations.isEmpty() ? maxGeneration : Math.max(maxGeneration, heldGenerations.lastKey());
    }

    /**
     * Drops the copies without END, and the undecodable records of xids no copy holds, that waited past the bound
     * of {@link UnfinishedAging}, so that they stop pinning consumer offsets. A streamed copy of an announced
     * generation is spared: only its run's end (staleness) condemns it.
     */
    private void abandonUnfinished() {
        aging.startSweep();
        List<HeldCopy> expired = held.values().stream()
                .filter(copy -> !copy.hasEnd()
                        && aging.expired(copy.lastGrowth())
                        && (!copy.streamed() || copy.key().generation() > maxGeneration))
                .toList();
        for (HeldCopy copy : expired) {
            boolean unannounced = copy.key().generation() > maxGeneration;
            aging.warn(
                    copy.key().toString(),
                    copy.count(),
                    copy.positions(),
                    unannounced
                            ? "its generation is above every generation the marker topic announced (" + maxGeneration
                                    + ") and no START announced it"
                            : "no END came");
            listener.abandoned(copy.key().xid(), copy.count());
            discard(copy, ABANDONED);
        }
        for (PoisonCredits.Abandoned xid : poison.abandon(aging::expired, this::holdsXid)) {
            aging.warn(
                    "xid " + xid.xid() + "'s undecodable records",
                    xid.records(),
                    xid.positions(),
                    "no copy of the xid and no END came");
            listener.abandoned(xid.xid(), xid.records());
        }
        aging.endSweep();
    }

    private boolean holdsXid(long xid) {
        return held.keySet().stream().anyMatch(key -> key.xid() == xid);
    }

    private void onEnd(Marker.End end, TopicPartition partition, long offset) {
        CopyKey key = new CopyKey(end.xid(), end.generation());
        HeldCopy copy = held.get(key);
        if (ABANDONED.equals(finished.reason(key))) {
            throw new ConnectException("END of " + key + " (end LSN " + end.endLsn() + ") at " + partition + "@"
                    + offset + " came after its records were abandoned, " + aging.maxEnds() + " END markers after"
                    + " the last of them: the marker topic lags the change topics further than the sink can hold;"
                    + " the transaction's records must be read again (reset the sink's consumer offsets to before"
                    + " them)");
        }
        if (finished.reason(key) != null || (copy != null && copy.hasEnd())) {
            return; // a redelivered END
        }
        if (alreadyApplied(end.endLsn())) {
            if (copy != null) {
                discard(copy, APPLIED);
            }
            finished.finish(key, APPLIED);
            poison.clear(key.xid());
            return;
        }
        if (copy == null) {
            copy = open(key);
        }
        copy.end(end, partition, offset);
        endOrder.addLast(key);
    }

    private void onAbort(Marker.Abort abort, TopicPartition partition, long offset) {
        CopyKey key = new CopyKey(abort.xid(), abort.generation());
        HeldCopy copy = held.get(key);
        if (finished.reason(key) != null) {
            return;
        }
        if (abort.isTopLevel()) {
            if (copy != null) {
                discard(copy, ABORTED);
            }
            finished.finish(key, ABORTED);
            poison.clear(key.xid());
            return;
        }
        if (copy == null) {
            copy = open(key);
        }
        long before = copy.memoryBytes();
        long cancelled = copy.cancel(abort.subxid(), partition, offset);
        bufferedBytes += copy.memoryBytes() - before;
        if (cancelled > 0) {
            listener.dropped(ABORTED, cancelled);
        }
    }

    private HeldCopy open(CopyKey key) {
        HeldCopy copy = new HeldCopy(key, aging.ends());
        held.put(key, copy);
        heldGenerations.merge(key.generation(), 1, Integer::sum);
        return copy;
    }

    private void unhold(CopyKey key) {
        if (held.remove(key) != null) {
            heldGenerations.computeIfPresent(key.generation(), (generation, copies) -> copies == 1 ? null : copies - 1);
        }
    }

    private boolean alreadyApplied(Lsn endLsn) {
        return applied.covers(endLsn) || (releasedThrough.isValid() && endLsn.compareTo(releasedThrough) <= 0);
    }

    private SourceTransaction release(HeldCopy copy) {
        unhold(copy.key());
        bufferedBytes -= copy.memoryBytes();
        finished.finish(copy.key(), DUPLICATE);
        SourceTransaction transaction;
        try {
            transaction = copy.release(poison);
        } catch (IOException e) {
            throw spillFailure(copy, e);
        }
        poison.clear(copy.key().xid());
        releasedThrough = transaction.endLsn();
        return transaction;
    }

    /** Drops a held copy; later records of it are dropped as well, for the same reason. */
    private void discard(HeldCopy copy, String reason) {
        unhold(copy.key());
        bufferedBytes -= copy.memoryBytes();
        finished.finish(copy.key(), reason);
        if (copy.count() > 0) {
            listener.dropped(reason, copy.count());
        }
        copy.discard();
    }

    /** Spills the largest in-memory copies until the buffer fits again; reading never waits. */
    private void enforceLimit() {
        if (bufferedBytes <= settings.maxBytes()) {
            return;
        }
        List<HeldCopy> largest = held.values().stream()
                .filter(copy -> !copy.spilled() && copy.memoryBytes() > 0)
                .sorted(Comparator.comparingLong(HeldCopy::memoryBytes).reversed())
                .toList();
        Iterator<HeldCopy> next = largest.iterator();
        while (bufferedBytes > settings.maxBytes() && next.hasNext()) {
            HeldCopy copy = next.next();
            try {
                long freed = copy.spill(new SpillFiles(settings.spillArea(), copy.key(), new SpillFormat(envelopes)));
                bufferedBytes -= freed;
                listener.spilled(copy.key().xid(), freed);
            } catch (IOException | UncheckedIOException e) {
                throw spillFailure(copy, e);
            }
            reportOverCap(copy);
        }
    }

    private void reportOverCap(HeldCopy copy) {
        long cap = settings.spillMaxBytes();
        if (copy.firstOverCap(cap)) {
            listener.spilledOverCap(copy.key().xid(), copy.key().generation(), copy.spilledBytes(), cap);
        }
    }

    private static ConnectException spillFailure(HeldCopy copy, Exception e) {
        return new ConnectException("cannot spill " + copy.key() + " to disk: " + e.getMessage(), e);
    }
}
