package dev.pglane.source.snapshot;

import dev.pglane.source.pgoutput.LogicalDecodingMessage;
import dev.pglane.source.pgoutput.RelationMessage;
import dev.pglane.source.pgoutput.TupleData;
import dev.pglane.wire.envelope.Op;
import dev.pglane.wire.marker.SnapshotChunk;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * The snapshot as the reader thread meets it in the stream: watermarks open and close chunk windows, the changes in
 * between go to the windows of their table, and a high watermark of this run yields the chunk to send. Used by the
 * reader thread only.
 */
public final class SnapshotStream {
    private final String topicPrefix;
    private final long generation;
    private final SnapshotRunner runner;
    private final Map<Integer, List<ChunkWindow>> open = new HashMap<>();

    /** What a watermark asks of the reader. */
    public enum Kind {
        /** Nothing: a low watermark, another connector's, or a chunk to be read again. */
        NONE,
        /**
         * The high watermark of an earlier run, whose chunk is gone: its transaction is sent with no records, so a
         * copy of it that the earlier run left incomplete is replaced by a complete, empty one.
         */
        ORPHAN,
        /** A chunk to send as the records of the watermark's transaction. */
        CHUNK
    }

    /**
     * @param relation the Relation message that describes the rows
     * @param progress the snapshot progress once this chunk's END is out
     */
    public record Received(
            Kind kind, RelationMessage relation, List<TupleData> rows, SnapshotChunk chunk, String progress) {
        static final Received NONE = new Received(Kind.NONE, null, List.of(), null, null);
        static final Received ORPHAN = new Received(Kind.ORPHAN, null, List.of(), null, null);
    }

    /** @param runner the snapshot of this session, or {@code null} when none runs */
    public SnapshotStream(String topicPrefix, long generation, SnapshotRunner runner) {
        this.topicPrefix = topicPrefix;
        this.generation = generation;
        this.runner = runner;
    }

    /** The progress the session starts with, for the offsets; {@code null} when no snapshot runs. */
    public String progressText() {
        return runner == null ? null : runner.progress().toText();
    }

    /** True if a message with this prefix is a watermark (of any connector), never a record. */
    public static boolean isWatermark(String prefix) {
        return Watermark.PREFIX.equals(prefix);
    }

    /** True while the table still has rows to be sent: its changes may reach rows a target lacks. */
    public boolean pending(int relationId) {
        return runner != null && runner.pending(relationId);
    }

    /**
     * True while the changes of a keyless table are held back: its one chunk, sent at its high watermark, brings the
     * table to that point, and a change sent before it would be applied twice.
     */
    public boolean heldBack(int relationId) {
        if (!pending(relationId)) {
            return false;
        }
        SnapshotTable table = runner.table(relationId);
        return table != null && !table.keyed();
    }

    /** A change of a committed transaction (not one streamed before its commit). */
    public void changed(int relationId, long xid, Op op, TupleData old, TupleData now) {
        List<ChunkWindow> windows = open.get(relationId);
        if (windows != null) {
            windows.forEach(w -> w.changed(xid, op, old, now));
        }
    }

    /** A Relation message: the table's shape may have changed under its open chunks. */
    public void relationChanged(int relationId) {
        List<ChunkWindow> windows = open.get(relationId);
        if (windows != null) {
            windows.forEach(w -> w.breakWith("the table's schema changed while it was read"));
        }
    }

    /** A transaction streamed before its commit committed; its changes were not kept for the windows. */
    public void streamedCommit(long xid) {
        open.values().forEach(windows -> windows.forEach(w -> w.streamedCommit(xid)));
    }

    /** A logical decoding message whose prefix {@link #isWatermark} accepted. */
    public Received received(LogicalDecodingMessage message) {
        Watermark watermark = Watermark.parse(new String(message.content(), StandardCharsets.UTF_8));
        if (watermark == null || !watermark.topicPrefix().equals(topicPrefix)) {
            return Received.NONE;
        }
        boolean ours = runner != null && watermark.generation() == generation;
        if (!watermark.high()) {
            if (ours) {
                opened(watermark.serial());
            }
            return Received.NONE;
        }
        ChunkRead read = ours ? runner.end(watermark.serial()) : null;
        if (read == null) {
            return message.transactional() ? Received.ORPHAN : Received.NONE;
        }
        return closed(read);
    }

    private void opened(long serial) {
        ChunkRead read = runner.read(serial);
        if (read != null) {
            open.computeIfAbsent(read.chunk.table().oid(), oid -> new ArrayList<>())
                    .add(read.window);
        }
    }

    /** The chunk at its high watermark: sent, or handed back to be read again. */
    private Received closed(ChunkRead read) {
        int oid = read.chunk.table().oid();
        List<ChunkWindow> windows = open.get(oid);
        if (windows != null) {
            windows.remove(read.window);
            if (windows.isEmpty()) {
                open.remove(oid);
            }
        }
        List<TupleData> rows = read.rows() == null ? null : read.window.atHighWatermark(read.rows(), read.snapshot());
        if (rows == null) {
            runner.retry(read, read.rows() == null ? "its rows were not handed over" : read.window.retryReason());
            return Received.NONE;
        }
        SnapshotChunk chunk = runner.sent(read, rows.size());
        SnapshotProgress progress = runner.progress();
        return new Received(
                Kind.CHUNK,
                read.chunk.table().relationMessage(),
                rows,
                chunk,
                progress.complete() ? null : progress.toText());
    }
}
