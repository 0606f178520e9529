package dev.pglane.source.snapshot;

import dev.pglane.source.capture.TableCapture;
import dev.pglane.source.pgoutput.LogicalDecodingMessage;
import dev.pglane.source.pgoutput.RelationMessage;
import dev.pglane.source.pgoutput.TupleData;
import dev.pglane.source.schema.RelationDescriptor;
import dev.pglane.source.seal.MessageSeal;
import dev.pglane.source.signal.Signal;
import dev.pglane.source.signal.SignalMessage;
import dev.pglane.wire.envelope.Op;
import dev.pglane.wire.marker.SnapshotChunk;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The snapshot as the reader thread meets it in the stream: watermarks open and close chunk windows, the changes in
 * between go to the windows of their table, and a high watermark of this run yields the chunk to send. Used by the
 * reader thread only.
 */
public final class SnapshotStream implements AutoCloseable {
    private static final Logger log = LoggerFactory.getLogger(SnapshotStream.class);

    private final MessageSeal seal;
    private final boolean signalTopic;
    private final long generation;
    private final String signalSchema;
    private final String signalTable;
    private final Starter starter;
    private final TableCapture capture;
    /** Written by the reader thread only; read by the metrics too. */
    private volatile SnapshotRunner runner;

    private final Map<Integer, List<ChunkWindow>> open = new HashMap<>();

    /** Plans and starts a snapshot that a signal asks for, on the session's connections. */
    @FunctionalInterface
    public interface Starter {
        SnapshotRunner start(SnapshotProgress progress) throws SQLException;
    }

    /**
     * What a signal changed.
     *
     * @param changesProgress the offsets carry {@code progress} from the signal's transaction on
     * @param progress the snapshot's progress then, {@code null} when none is under way
     */
    public record SignalOutcome(boolean changesProgress, String progress) {
        static final SignalOutcome NONE = new SignalOutcome(false, null);
    }

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

    /** A stream without signals: {@code runner} is the session's snapshot, or {@code null} when it runs none. */
    public SnapshotStream(MessageSeal seal, long generation, SnapshotRunner runner) {
        this(
                seal,
                false,
                generation,
                runner,
                null,
                progress -> {
                    throw new IllegalStateException("no signal table");
                },
                null);
    }

    /**
     * @param seal the connector's seal, which its watermarks and signal messages carry
     * @param signalTopic whether signals reach the stream as messages ({@code signal.kafka.topic}); when not, every
     *     signal message is refused
     * @param runner the snapshot the session starts with, or {@code null}
     * @param signalTable {@code schema.table} of the signal table, or {@code null} when signals are off
     * @param capture the captured tables, whose joined ones this stream snapshots; {@code null} when not tracked
     */
    public SnapshotStream(
            MessageSeal seal,
            boolean signalTopic,
            long generation,
            SnapshotRunner runner,
            String signalTable,
            Starter starter,
            TableCapture capture) {
        this.seal = seal;
        this.signalTopic = signalTopic;
        this.capture = capture;
        this.generation = generation;
        this.runner = runner;
        int dot = signalTable == null ? -1 : signalTable.indexOf('.');
        this.signalSchema = dot < 0 ? null : signalTable.substring(0, dot);
        this.signalTable = dot < 0 ? null : signalTable.substring(dot + 1);
        this.starter = starter;
    }

    /** True for the signal table, whose changes are never records. */
    public boolean isSignalTable(String schema, String table) {
        return signalTable != null && signalTable.equals(table) && signalSchema.equals(schema);
    }

    /**
     * A row inserted into the signal table.
     *
     * @param relation its descriptor, whose columns name the tuple's values
     */
    public SignalOutcome signal(RelationDescriptor relation, TupleData row) throws SQLException {
        String id = value(relation, row, "id");
        Signal signal;
        try {
            signal = Signal.parse(id, value(relation, row, "type"), value(relation, row, "data"));
        } catch (IllegalArgumentException e) {
            log.warn("Signal {} of {}.{} is ignored: {}", id, signalSchema, signalTable, e.getMessage());
            return SignalOutcome.NONE;
        }
        return signal(signal);
    }

    /** True for the prefix of {@link SignalMessage}s. */
    public static boolean isSignalMessage(String prefix) {
        return SignalMessage.PREFIX.equals(prefix);
    }

    /**
     * A logical decoding message whose prefix {@link #isSignalMessage} accepted: a signal of the signal topic, if it
     * names this connector, which has a signal topic, and carries the connector's seal.
     */
    public SignalOutcome signal(LogicalDecodingMessage message) throws SQLException {
        MessageSeal.Opened opened = seal.open(message.prefix(), message.content());
        SignalMessage carried;
        try {
            carried = SignalMessage.parse(opened.payload());
        } catch (IllegalArgumentException e) {
            seal.refused().refuse(message.prefix(), message.lsn(), "its content is not a signal pglane writes");
            return SignalOutcome.NONE;
        }
        if (!carried.topicPrefix().equals(seal.connector())) {
            return SignalOutcome.NONE; // another connector's
        }
        if (!signalTopic) {
            seal.refused()
                    .refuse(
                            message.prefix(),
                            message.lsn(),
                            "signals reach the stream as messages only from signal.kafka.topic, which is not set");
            return SignalOutcome.NONE;
        }
        if (!opened.authentic()) {
            seal.refused().unsealed(message.prefix(), message.lsn());
            return SignalOutcome.NONE;
        }
        Signal signal;
        try {
            signal = carried.signal();
        } catch (IllegalArgumentException e) {
            log.warn("A signal message at {} is ignored: {}", message.lsn(), e.getMessage());
            return SignalOutcome.NONE;
        }
        if (!message.transactional()) {
            log.warn(
                    "Signal {} at {} is ignored: it was written outside a transaction, so no offset could hold what it"
                            + " changes",
                    signal.id(),
                    message.lsn());
            return SignalOutcome.NONE;
        }
        return signal(signal);
    }

    /** The captured tables, or {@code null} when {@code snapshot.new.tables} is off. */
    public TableCapture capture() {
        return capture;
    }

    /** Tables that joined the publication: their snapshot starts, or they join the one under way. */
    public SignalOutcome tablesJoined(TableCapture.Change change) throws SQLException {
        log.info(
                "Tables {} joined the publication ({}): their existing rows are snapshotted",
                change.joined(),
                change.id());
        return snapshot(new Signal(change.id(), Signal.Kind.EXECUTE_SNAPSHOT, change.joined(), Map.of()));
    }

    private SignalOutcome signal(Signal signal) throws SQLException {
        return switch (signal.kind()) {
            case EXECUTE_SNAPSHOT -> snapshot(signal);
            case STOP_SNAPSHOT -> stop(signal);
            case PAUSE_SNAPSHOT, RESUME_SNAPSHOT -> pause(signal, signal.kind() == Signal.Kind.PAUSE_SNAPSHOT);
        };
    }

    private SignalOutcome snapshot(Signal signal) throws SQLException {
        if (runner != null && !runner.progress().complete()) {
            runner.add(signal.tables(), signal.filters());
            log.info(
                    "Signal {}: tables {} join snapshot {}",
                    signal.id(),
                    signal.tables(),
                    runner.progress().snapshotId());
        } else {
            close();
            runner = starter.start(SnapshotProgress.start("signal-" + signal.id(), signal.tables(), signal.filters()));
            if (runner == null) {
                log.warn(
                        "Signal {}: none of {} is a captured table; nothing to snapshot", signal.id(), signal.tables());
                return SignalOutcome.NONE;
            }
            log.info(
                    "Signal {}: snapshot {} of {} starts{}",
                    signal.id(),
                    runner.progress().snapshotId(),
                    signal.tables(),
                    signal.filters().isEmpty() ? "" : ", filtered by " + signal.filters());
        }
        return new SignalOutcome(true, progressText());
    }

    private SignalOutcome stop(Signal signal) {
        if (runner == null || runner.progress().complete()) {
            log.info("Signal {}: no snapshot is under way to stop", signal.id());
            return SignalOutcome.NONE;
        }
        log.warn(
                "Signal {}: snapshot {} stops; the rows of {} it has not sent will not be sent",
                signal.id(),
                runner.progress().snapshotId(),
                runner.progress().unfinishedTables());
        close();
        runner = null;
        open.clear();
        return new SignalOutcome(true, null);
    }

    private SignalOutcome pause(Signal signal, boolean paused) {
        if (runner == null || runner.progress().complete()) {
            log.info("Signal {}: no snapshot is under way to {}", signal.id(), paused ? "pause" : "resume");
        } else {
            runner.pause(paused);
            log.info(
                    "Signal {}: snapshot {} {}",
                    signal.id(),
                    runner.progress().snapshotId(),
                    paused ? "pauses: no new chunk is read until resume-snapshot" : "resumes");
        }
        return SignalOutcome.NONE;
    }

    private static String value(RelationDescriptor relation, TupleData row, String column) {
        for (int i = 0; i < relation.columns().size(); i++) {
            if (relation.columns().get(i).name().equals(column)) {
                return row.kind(i) == 't' ? row.text(i) : null;
            }
        }
        return null;
    }

    /** Where the current snapshot stands, or {@code null} when none runs; any thread. */
    public SnapshotRunner.Standing standing() {
        SnapshotRunner current = runner;
        return current == null ? null : current.standing();
    }

    /** Stops the snapshot's threads. */
    @Override
    public void close() {
        if (runner != null) {
            runner.close();
        }
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
        return (runner != null && runner.pending(relationId))
                // a table that joined the publication, whose snapshot has not started yet
                || (capture != null && !capture.captures(relationId));
    }

    /**
     * True while the changes of a keyless table are held back: its one chunk, sent at its high watermark, brings the
     * table to that point, and a change sent before it would be applied twice.
     */
    public boolean heldBack(int relationId) {
        if (runner == null || !runner.pending(relationId)) {
            return false; // a joined table's changes before its snapshot starts precede the chunk's low watermark
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

    /**
     * A Relation message. pgoutput sends one before a table's first change of each session as well as after a schema
     * change, so only one that describes other columns than a chunk was read with breaks its window.
     */
    public void relationChanged(RelationMessage relation) {
        List<ChunkWindow> windows = open.get(relation.relationId());
        if (windows != null) {
            windows.forEach(w -> w.relationChanged(relation));
        }
    }

    /** A transaction streamed before its commit committed; its changes were not kept for the windows. */
    public void streamedCommit(long xid) {
        open.values().forEach(windows -> windows.forEach(w -> w.streamedCommit(xid)));
    }

    /** A logical decoding message whose prefix {@link #isWatermark} accepted. */
    public Received received(LogicalDecodingMessage message) {
        MessageSeal.Opened opened = seal.open(message.prefix(), message.content());
        Watermark watermark = Watermark.parse(opened.payload());
        if (watermark == null || !watermark.topicPrefix().equals(seal.connector())) {
            return Received.NONE;
        }
        if (!opened.authentic()) {
            seal.refused().unsealed(message.prefix(), message.lsn());
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
        if (read == null) {
            return;
        }
        List<ChunkWindow> windows = open.computeIfAbsent(read.chunk.table().oid(), oid -> new ArrayList<>());
        if (!windows.contains(read.window)) { // a window is closed once: opened twice, it would stay open for ever
            windows.add(read.window);
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
