package dev.pglane.source.snapshot;

import dev.pglane.source.pgoutput.RelationMessage;
import dev.pglane.source.pgoutput.TupleData;
import dev.pglane.wire.envelope.Op;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * What the stream did to one chunk's table between the chunk's low and high watermarks, and the chunk's rows brought
 * forward to the high watermark with it.
 *
 * <p>The rows were read under a snapshot S taken after the low watermark L. The chunk is sent at the high watermark H,
 * after every transaction the stream committed before H. A transaction that committed between L and H and that S
 * sees is already in the rows; one that S does not see is not, and the chunk would undo it. So at H the window
 * replays onto the rows the changes of those transactions: an update replaces the row (filling the unchanged-TOAST
 * columns it did not send from the row it replaces), a delete removes it, a truncate empties the chunk. The result is
 * the chunk's rows as they are at H. No transaction that S does not see can have committed before L, because the
 * reader waits, between L and S, until every transaction running at L has ended.
 *
 * <p>Inserts are replayed too, since the chunk is sent with its key range, and a consumer deletes the rows of the
 * range the chunk does not hold: the chunk must hold every row the range has at H, so an update that moves a row
 * the chunk lacks to a new key adds it too (see {@link #movedIn}). A keyed table's changes stream
 * on while it is read, so such a row also reached the consumer by the stream, and the chunk's upsert by key leaves
 * it as it is. A keyless table's rows can only be matched by their values, so it is read in one chunk and the source
 * holds its changes back until that chunk is out: the chunk alone brings the table to its state at H.
 *
 * <p>Used by the reader thread only, once the window is open.
 */
final class ChunkWindow {
    private final Chunk chunk;
    private final int[] keyPositions;
    private final List<Change> changes = new ArrayList<>();
    private String broken;

    private record Change(long xid, Op op, TupleData old, TupleData now) {}

    ChunkWindow(Chunk chunk) {
        this.chunk = chunk;
        this.keyPositions = chunk.table().keyed() ? chunk.table().keyPositions() : null;
    }

    Chunk chunk() {
        return chunk;
    }

    /** A committed change of the chunk's table inside the window. */
    void changed(long xid, Op op, TupleData old, TupleData now) {
        changes.add(new Change(xid, op, old, now));
    }

    /** A Relation message of the chunk's table: the chunk is read again if it describes other columns. */
    void relationChanged(RelationMessage relation) {
        SnapshotTable table = chunk.table();
        boolean changed =
                !relation.columns().equals(table.columns()) || relation.replicaIdentity() != table.replicaIdentity();
        if (changed && broken == null) {
            broken = "the table's schema changed while it was read";
        }
    }

    /** A transaction streamed before its commit committed in the window: its changes were not kept. */
    void streamedCommit(long xid) {
        changes.add(new Change(xid, null, null, null));
    }

    /**
     * The chunk's rows as they are at the high watermark.
     *
     * @param rows the rows as read under {@code snapshot}
     * @return the rows to send, or {@code null} with {@link #retryReason()} set when the chunk must be read again
     */
    List<TupleData> atHighWatermark(List<TupleData> rows, ReadSnapshot snapshot) {
        if (broken != null) {
            return null;
        }
        List<Change> unseen =
                changes.stream().filter(c -> !snapshot.sees(c.xid)).toList();
        if (unseen.isEmpty()) {
            return rows;
        }
        Map<String, Deque<TupleData>> byKey = new LinkedHashMap<>();
        for (TupleData row : rows) {
            byKey.computeIfAbsent(key(row), k -> new ArrayDeque<>()).add(row);
        }
        for (Change change : unseen) {
            if (change.op == null) {
                broken = "a transaction streamed before its commit (xid " + change.xid + ") committed meanwhile";
                return null;
            }
            if (!replay(change, byKey)) {
                return null;
            }
        }
        List<TupleData> out = new ArrayList<>(rows.size());
        byKey.values().forEach(out::addAll);
        return out;
    }

    /** Why {@link #atHighWatermark} gave up, or {@code null}. */
    String retryReason() {
        return broken;
    }

    private boolean replay(Change change, Map<String, Deque<TupleData>> byKey) {
        switch (change.op) {
            case TRUNCATE -> byKey.clear();
            case DELETE -> {
                String key = key(change.old);
                if (key == null) {
                    broken = "a delete in the window has no key the chunk can match";
                    return false;
                }
                take(byKey, key);
            }
            case UPDATE -> {
                String oldKey = key(change.old != null ? change.old : change.now);
                String newKey = keyPositions == null ? null : key(change.now);
                if (oldKey == null || (keyPositions != null && newKey == null)) {
                    broken = "an update in the window has a key value PostgreSQL did not send (unchanged TOAST)";
                    return false;
                }
                TupleData previous = take(byKey, oldKey);
                if (previous != null) {
                    TupleData row = filled(change.now, previous);
                    String key = keyPositions == null ? key(row) : newKey;
                    byKey.computeIfAbsent(key, k -> new ArrayDeque<>()).add(row);
                } else if (keyPositions != null && !oldKey.equals(newKey)) {
                    return movedIn(change, newKey, byKey);
                }
            }
            default -> {
                String key = key(change.now);
                if (key == null) {
                    broken = "an insert in the window has a key value PostgreSQL did not send";
                    return false;
                }
                if (keyPositions != null) {
                    byKey.remove(key); // a key deleted and inserted again in the window holds the new row only
                }
                byKey.computeIfAbsent(key, k -> new ArrayDeque<>()).add(change.now);
            }
        }
        return true;
    }

    /**
     * An update that gave a row the chunk does not hold a new key. The key may lie in the chunk's range, where the
     * consumer has the row from the stream and would delete it as not the source's, so the row goes into the chunk
     * (outside the range it is upserted with its state at H, which changes nothing). A row whose values PostgreSQL did
     * not all send (unchanged TOAST) cannot: the chunk is read again. An update that kept its row's key, on the
     * other hand, is of a row outside the range: in it the chunk holds every row, those the window inserted too.
     */
    private boolean movedIn(Change change, String newKey, Map<String, Deque<TupleData>> byKey) {
        for (int i = 0; i < change.now.size(); i++) {
            if (change.now.kind(i) == 'u') {
                broken = "an update in the window gave a row a new key, which may lie in the chunk, without sending"
                        + " all its values (unchanged TOAST)";
                return false;
            }
        }
        byKey.computeIfAbsent(newKey, k -> new ArrayDeque<>()).add(change.now);
        return true;
    }

    private static TupleData take(Map<String, Deque<TupleData>> byKey, String key) {
        Deque<TupleData> rows = byKey.get(key);
        if (rows == null) {
            return null;
        }
        TupleData row = rows.poll();
        if (rows.isEmpty()) {
            byKey.remove(key);
        }
        return row;
    }

    /**
     * The key a row is matched by: the chunk key's values, or every value for a keyless table (whose updates and
     * deletes carry the whole old row); {@code null} if one of them was not sent.
     */
    private String key(TupleData row) {
        StringBuilder key = new StringBuilder();
        int count = keyPositions == null ? row.size() : keyPositions.length;
        for (int i = 0; i < count; i++) {
            int column = keyPositions == null ? i : keyPositions[i];
            char kind = row.kind(column);
            if (kind == 'u') {
                return null;
            }
            key.append(kind == 'n' ? "\u0001" : row.text(column)).append('\u0000');
        }
        return key.toString();
    }

    /** {@code now} with each column PostgreSQL did not send (unchanged TOAST) taken from {@code previous}. */
    private static TupleData filled(TupleData now, TupleData previous) {
        boolean complete = true;
        for (int i = 0; i < now.size(); i++) {
            complete &= now.kind(i) != 'u';
        }
        if (complete) {
            return now;
        }
        List<byte[]> values = new ArrayList<>();
        byte[] kinds = new byte[now.size()];
        int total = 0;
        for (int i = 0; i < now.size(); i++) {
            TupleData source = now.kind(i) == 'u' ? previous : now;
            boolean isNull = source.kind(i) == 'n';
            kinds[i] = (byte) (isNull ? 'n' : 't');
            byte[] value = isNull ? null : source.bytes(i);
            values.add(value);
            total += isNull ? 0 : value.length;
        }
        byte[] data = new byte[total];
        int[] offsets = new int[kinds.length];
        int[] lengths = new int[kinds.length];
        int at = 0;
        for (int i = 0; i < kinds.length; i++) {
            byte[] value = values.get(i);
            if (value != null) {
                System.arraycopy(value, 0, data, at, value.length);
                offsets[i] = at;
                lengths[i] = value.length;
                at += value.length;
            }
        }
        return TupleData.ofText(data, kinds, offsets, lengths);
    }

    @Override
    public String toString() {
        return chunk.describe() + " window, " + changes.size() + " changes";
    }
}
