package dev.pglane.local.kafka;

import dev.pglane.wire.Lsn;
import dev.pglane.wire.envelope.ChangeEvent;
import dev.pglane.wire.marker.Marker;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;

/**
 * A reference consumer of the wire format: the discard rule of docs/wire-format.md §5, written as plainly as
 * possible and independently of the sink, so tests can say "a consumer following the documented rule rebuilds
 * exactly these transactions".
 *
 * <p>Feed it every record of a source's topics in the order they arrive ({@link #accept}); it yields the committed
 * transactions in commit (END) order:
 *
 * <ol>
 *   <li>records are grouped by (xid, generation);
 *   <li>a copy is complete when its END has been read and its records match END's counts per table; complete
 *       copies are released in END order, an incomplete one holding back those after it until a later generation's
 *       copy of the same transaction (same end LSN) is complete and released in its place;
 *   <li>START(g) makes every copy of an earlier generation without an END so far stale: its records, buffered or
 *       still to come, are dropped;
 *   <li>ABORT(xid, subxid, g) drops the records of (xid, g) of that subtransaction, or the whole copy when
 *       {@code subxid == xid};
 *   <li>a copy whose END {@code end_lsn} is at or below the last released END's {@code end_lsn} is a duplicate of
 *       a released transaction and is dropped.
 * </ol>
 *
 * <p>It keeps every record of an unreleased copy in memory: meant for tests, not for millions of rows. Not
 * thread-safe.
 */
public final class TransactionRebuilder {
    private final Map<CopyId, TransactionCopy> copies = new HashMap<>();
    private final Set<CopyId> ended = new HashSet<>();
    private final Set<CopyId> dropped = new HashSet<>();
    private final Deque<Marker.End> pendingEnds = new ArrayDeque<>();
    /** The same ENDs by xid: a stuck END's search for a later run's copy looks at its own xid's only. */
    private final Map<Long, List<Marker.End>> pendingByXid = new HashMap<>();

    private final List<CommittedTransaction> committed = new ArrayList<>();
    private final List<Marker.Start> starts = new ArrayList<>();
    private final List<Marker.Abort> aborts = new ArrayList<>();
    private long latestStart = -1;
    private Lsn applied = Lsn.INVALID;
    private int duplicatesSkipped;
    private int staleCopiesDropped;
    private int incompleteCopiesReplaced;

    public void accept(WireRecord record) {
        if (record instanceof WireRecord.Change change) {
            acceptChange(change.event());
        } else if (record instanceof WireRecord.MarkerRecord marker) {
            acceptMarker(marker.marker());
        }
    }

    private void acceptChange(ChangeEvent event) {
        if (event.transaction() == null) {
            return; // a non-transactional logical decoding message belongs to no transaction
        }
        CopyId id = new CopyId(event.transaction().xid(), event.transaction().generation());
        if (dropped.contains(id)) {
            return;
        }
        if (id.generation() < latestStart && !ended.contains(id)) {
            // its run ended before its END: a stale partial copy whose records were still in flight (rule 3)
            dropStale(id);
            return;
        }
        copies.computeIfAbsent(id, TransactionCopy::new).add(event);
        release();
    }

    /** BEGIN carries nothing the rule needs; HEARTBEAT only reports progress of an idle source. */
    private void acceptMarker(Marker marker) {
        if (marker instanceof Marker.Start start) {
            acceptStart(start);
        } else if (marker instanceof Marker.Abort abort) {
            acceptAbort(abort);
        } else if (marker instanceof Marker.End end && ended.add(new CopyId(end.xid(), end.generation()))) {
            pendingEnds.add(end);
            pendingByXid.computeIfAbsent(end.xid(), xid -> new ArrayList<>(1)).add(end);
            release();
        }
    }

    private void acceptStart(Marker.Start start) {
        starts.add(start);
        latestStart = Math.max(latestStart, start.generation());
        List<CopyId> stale = copies.keySet().stream()
                .filter(id -> id.generation() < start.generation() && !ended.contains(id))
                .toList();
        stale.forEach(this::dropStale);
    }

    private void acceptAbort(Marker.Abort abort) {
        aborts.add(abort);
        CopyId id = new CopyId(abort.xid(), abort.generation());
        if (abort.isTopLevel()) {
            copies.remove(id);
            dropped.add(id);
        } else if (!dropped.contains(id)) {
            copies.computeIfAbsent(id, TransactionCopy::new).cancel(abort.subxid());
        }
    }

    private void dropStale(CopyId id) {
        copies.remove(id);
        if (dropped.add(id)) {
            staleCopiesDropped++;
        }
    }

    /** Releases complete copies from the head of the END queue, in END order (rules 2, 5 and 6). */
    private void release() {
        while (!pendingEnds.isEmpty()) {
            Marker.End end = pendingEnds.peek();
            CopyId id = new CopyId(end.xid(), end.generation());
            if (end.endLsn().compareTo(applied) <= 0) {
                copies.remove(id);
                dropped.add(id);
                duplicatesSkipped++;
                unpend(pendingEnds.poll());
                continue;
            }
            Marker.End releasable = isComplete(end) ? end : resentComplete(end);
            if (releasable == null) {
                return;
            }
            unpend(pendingEnds.poll());
            if (releasable != end) {
                incompleteCopiesReplaced++;
                pendingEnds.remove(releasable);
                unpend(releasable);
                copies.remove(id);
                dropped.add(id);
            }
            CopyId released = new CopyId(releasable.xid(), releasable.generation());
            committed.add(new CommittedTransaction(
                    releasable,
                    copies.getOrDefault(released, new TransactionCopy(released)).changes()));
            applied = releasable.endLsn();
            copies.remove(released);
            dropped.add(released);
        }
    }

    private void unpend(Marker.End end) {
        List<Marker.End> sameXid = pendingByXid.get(end.xid());
        sameXid.remove(end);
        if (sameXid.isEmpty()) {
            pendingByXid.remove(end.xid());
        }
    }

    private boolean isComplete(Marker.End end) {
        CopyId id = new CopyId(end.xid(), end.generation());
        return copies.getOrDefault(id, new TransactionCopy(id)).isCompleteFor(end);
    }

    /** Rule 6: a later run's complete copy of the stuck transaction (same xid and end LSN), or {@code null}. */
    private Marker.End resentComplete(Marker.End stuck) {
        return pendingByXid.get(stuck.xid()).stream()
                .filter(later -> later.generation() > stuck.generation()
                        && later.endLsn().equals(stuck.endLsn())
                        && isComplete(later))
                .findFirst()
                .orElse(null);
    }

    /** The transactions released so far, in commit order. */
    public List<CommittedTransaction> committed() {
        return List.copyOf(committed);
    }

    public int committedCount() {
        return committed.size();
    }

    /** The START markers read, in order. */
    public List<Marker.Start> starts() {
        return List.copyOf(starts);
    }

    /** The ABORT markers read, in order. */
    public List<Marker.Abort> aborts() {
        return List.copyOf(aborts);
    }

    /** Complete copies dropped because their transaction had already been released (rule 5). */
    public int duplicatesSkipped() {
        return duplicatesSkipped;
    }

    /** Copies dropped as stale partial copies (rule 3). */
    public int staleCopiesDropped() {
        return staleCopiesDropped;
    }

    /** Copies whose END came with fewer records than it counts, released in their place by a later run's (rule 2). */
    public int incompleteCopiesReplaced() {
        return incompleteCopiesReplaced;
    }

    /** Whether nothing waits: every END read was released or dropped, and no record waits for its END. */
    public boolean settled() {
        return pendingEnds.isEmpty() && copies.isEmpty();
    }

    /** What is still waiting: the END queue's head and the buffered copies; for failure messages. */
    public String describe() {
        Marker.End head = pendingEnds.peek();
        TransactionCopy headCopy = head == null ? null : copies.get(new CopyId(head.xid(), head.generation()));
        return committed.size() + " committed, applied position " + applied + ", waiting for "
                + (head == null ? "no END" : head.toString())
                + (headCopy == null
                        ? ""
                        : " (total_order not arrived: " + headCopy.missingUpTo(head.eventCount()) + ")")
                + ", buffered: "
                + copies.values().stream().map(TransactionCopy::toString).collect(Collectors.joining("; "));
    }
}
