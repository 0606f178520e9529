package dev.pglane.source.reader;

import dev.pglane.source.capture.TableCapture;
import dev.pglane.source.decode.ChangeStamp;
import dev.pglane.source.decode.StreamItem;
import dev.pglane.source.pgoutput.BeginMessage;
import dev.pglane.source.pgoutput.CommitMessage;
import dev.pglane.source.pgoutput.DeleteMessage;
import dev.pglane.source.pgoutput.InsertMessage;
import dev.pglane.source.pgoutput.LogicalDecodingMessage;
import dev.pglane.source.pgoutput.OriginMessage;
import dev.pglane.source.pgoutput.PgOutputMessage;
import dev.pglane.source.pgoutput.RelationMessage;
import dev.pglane.source.pgoutput.StreamAbortMessage;
import dev.pglane.source.pgoutput.StreamCommitMessage;
import dev.pglane.source.pgoutput.StreamStartMessage;
import dev.pglane.source.pgoutput.StreamStopMessage;
import dev.pglane.source.pgoutput.TruncateMessage;
import dev.pglane.source.pgoutput.TupleData;
import dev.pglane.source.pgoutput.TypeMessage;
import dev.pglane.source.pgoutput.UpdateMessage;
import dev.pglane.source.schema.RelationCache;
import dev.pglane.source.schema.RelationDescriptor;
import dev.pglane.source.seal.MessageSeal;
import dev.pglane.source.sequences.SequenceMessages;
import dev.pglane.source.snapshot.SnapshotStream;
import dev.pglane.wire.Lsn;
import dev.pglane.wire.SourceOffset;
import dev.pglane.wire.Xid;
import dev.pglane.wire.envelope.LogicalMessage;
import dev.pglane.wire.envelope.Op;
import dev.pglane.wire.envelope.TruncateInfo;
import dev.pglane.wire.marker.DataCollectionCount;
import dev.pglane.wire.marker.Marker;
import java.sql.SQLException;
import java.util.List;
import org.apache.kafka.connect.errors.ConnectException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The reader's view of the transactions in the stream: it turns parsed pgoutput messages into stream
 * items, in order, deciding everything that depends on order. It tracks the open transaction (or the
 * open streamed transactions and the current chunk), numbers each record ({@code total_order}, and per
 * table {@code data_collection_order}), counts records per table for the END marker, cancels the counts
 * of aborted subtransactions, builds the markers and stamps every item with its source offset. Relation
 * and Type messages go to the relation cache. Used by the reader thread only.
 */
public final class TransactionTracker {
    private static final Logger log = LoggerFactory.getLogger(TransactionTracker.class);

    private final RelationCache relations;
    private final String messagesTopic;
    private final long generation;
    private final Lsn resumeLsn;
    private final boolean beginMarkers;
    private final MessageFilter messages;
    private final OriginFilter origins;
    private final SnapshotStream snapshot;
    private final MessageSeal seal;
    private final ItemSink sink;
    private final KeylessTables keylessTables = new KeylessTables();

    /** {@code commit_end_lsn} of every offset: the end of the last transaction fully emitted. */
    private Lsn lastEndLsn;
    /** The commit LSN of the last committed transaction, for {@code source.sequence}; null before one. */
    private Lsn lastCommitLsn;
    /** The snapshot progress every offset carries; {@code null} when no snapshot is under way. */
    private String snapshotProgress;

    private OpenTransaction current;
    private final StreamedTransactions streams = new StreamedTransactions();

    /**
     * @param messagesTopic the topic of logical decoding messages, named in END counts
     * @param resumeLsn where replication resumed; a transaction committed before it is not emitted again
     * @param beginMarkers also emit a BEGIN marker before each transaction's first record
     * @param messages which logical decoding messages, other than pglane's own, become records
     * @param origins whether transactions that came through a replication origin are emitted
     * @param seal the connector's seal, which its own sequence values carry and every offset keeps when generated
     */
    public TransactionTracker(
            RelationCache relations,
            String messagesTopic,
            long generation,
            Lsn resumeLsn,
            boolean beginMarkers,
            MessageFilter messages,
            OriginFilter origins,
            SnapshotStream snapshot,
            MessageSeal seal,
            ItemSink sink) {
        this.relations = relations;
        this.messagesTopic = messagesTopic;
        this.generation = generation;
        this.resumeLsn = resumeLsn;
        this.beginMarkers = beginMarkers;
        this.messages = messages;
        this.origins = origins;
        this.snapshot = snapshot;
        this.seal = seal;
        this.snapshotProgress = snapshot.progressText();
        this.sink = sink;
        this.lastEndLsn = resumeLsn;
    }

    /** Emits the START marker, naming the server, which must come before anything else of the session. */
    public void start(long nowMillis, ServerIdentity server) throws InterruptedException, SQLException {
        Marker start = new Marker.Start(generation, nowMillis, resumeLsn, server.systemId(), server.timeline());
        sink.add(new StreamItem.MarkerItem(start, between(resumeLsn)));
    }

    /** Emits a HEARTBEAT for a server position confirmed while nothing is in flight. */
    public void heartbeat(Lsn position, long nowMillis) throws InterruptedException, SQLException {
        lastEndLsn = Lsn.max(lastEndLsn, position);
        sink.add(new StreamItem.MarkerItem(new Marker.Heartbeat(generation, nowMillis, position), between(lastEndLsn)));
    }

    /** True while a chunk of a streamed transaction is open: the parser must then expect xids. */
    public boolean insideStream() {
        return streams.insideChunk();
    }

    /** True when no transaction is open, streamed or not. */
    public boolean idle() {
        return current == null && streams.isEmpty();
    }

    /**
     * Handles one parsed message.
     *
     * @param lsn the message's WAL position as the server sent it (XLogData {@code dataStart})
     * @param receiveMicros when it arrived: the time of streamed changes and of markers emitted now
     * @throws ConnectException if the message cannot occur where it did (e.g. a change outside a transaction)
     */
    public void accept(PgOutputMessage message, Lsn lsn, long receiveMicros) throws InterruptedException, SQLException {
        if (message instanceof InsertMessage m) {
            change(m.xid(), m.relationId(), Op.CREATE, null, m.newTuple(), lsn, receiveMicros);
        } else if (message instanceof UpdateMessage m) {
            change(m.xid(), m.relationId(), Op.UPDATE, m.oldTuple(), m.newTuple(), lsn, receiveMicros);
        } else if (message instanceof DeleteMessage m) {
            change(m.xid(), m.relationId(), Op.DELETE, m.oldTuple(), null, lsn, receiveMicros);
        } else if (message instanceof BeginMessage m) {
            begin(m, lsn);
        } else if (message instanceof CommitMessage m) {
            commit(m, lsn);
        } else if (message instanceof TruncateMessage m) {
            truncate(m, lsn, receiveMicros);
        } else if (message instanceof LogicalDecodingMessage m) {
            logicalMessage(m, lsn, receiveMicros);
        } else if (message instanceof RelationMessage m) {
            relation(m);
        } else if (message instanceof TypeMessage m) {
            relations.apply(
                    streams.insideChunk()
                            ? new TypeMessage(streams.chunkXid(), m.typeOid(), m.namespace(), m.typeName())
                            : m);
        } else if (message instanceof StreamStartMessage m) {
            streams.start(m, lsn, receiveMicros, current == null ? null : current.xid());
        } else if (message instanceof StreamStopMessage) {
            streams.stop(lsn);
        } else if (message instanceof StreamCommitMessage m) {
            streamCommit(m, lsn);
        } else if (message instanceof StreamAbortMessage m) {
            streamAbort(m, receiveMicros);
        } else if (message instanceof OriginMessage) {
            origin(lsn);
        }
    }

    /**
     * The open transaction was written by a session with a replication origin (a subscriber's, pglane's sink's): with
     * {@code origin.filter=none} none of it is emitted. PostgreSQL 16+ leaves such transactions out itself; before,
     * pgoutput has no option for it and sends this message right after Begin (or a first Stream Start).
     */
    private void origin(Lsn lsn) {
        if (origins == OriginFilter.NONE) {
            OpenTransaction txn = transactionOf("an Origin message", lsn);
            if (txn.announced()) {
                throw new ConnectException("pgoutput sent an Origin message for xid " + txn.xid() + " at LSN " + lsn
                        + " after records of the transaction");
            }
            txn.skip();
        }
    }

    private void change(long xid, int relationId, Op op, TupleData old, TupleData now, Lsn lsn, long receiveMicros)
            throws InterruptedException, SQLException {
        OpenTransaction txn = transactionOf("a change", lsn);
        if (txn.skipped()) {
            return;
        }
        RelationDescriptor relation = relations.get(relationId, streams.insideChunk() ? streams.chunkXid() : Xid.NONE);
        if (snapshot.isSignalTable(relation.schema(), relation.table())) {
            signal(txn, relation, op, now);
            return;
        }
        if (!streams.insideChunk()) {
            snapshot.changed(relationId, txn.xid(), op, old, now);
        }
        if (snapshot.heldBack(relationId)) {
            return;
        }
        String collection = DataCollectionCount.of(relation.schema(), relation.table());
        ChangeStamp stamp = stamp(txn, collection, relation.topic(), xid, lsn, receiveMicros);
        boolean pending = snapshot.pending(relationId);
        sink.add(new StreamItem.Change(relation, op, old, now, pending, stamp, offset(stamp)));
    }

    private void truncate(TruncateMessage message, Lsn lsn, long receiveMicros)
            throws InterruptedException, SQLException {
        OpenTransaction txn = transactionOf("a truncate", lsn);
        if (txn.skipped()) {
            return;
        }
        TruncateInfo options = new TruncateInfo(message.cascade(), message.restartIdentity());
        for (int relationId : message.relationIds()) {
            RelationDescriptor relation =
                    relations.get(relationId, streams.insideChunk() ? streams.chunkXid() : Xid.NONE);
            if (!streams.insideChunk()) {
                snapshot.changed(relationId, txn.xid(), Op.TRUNCATE, null, null);
            }
            if (snapshot.heldBack(relationId)) {
                continue;
            }
            String collection = DataCollectionCount.of(relation.schema(), relation.table());
            ChangeStamp stamp = stamp(txn, collection, relation.topic(), message.xid(), lsn, receiveMicros);
            sink.add(new StreamItem.Truncate(relation, options, stamp, offset(stamp)));
        }
    }

    private void logicalMessage(LogicalDecodingMessage message, Lsn lsn, long receiveMicros)
            throws InterruptedException, SQLException {
        if (SnapshotStream.isWatermark(message.prefix())) {
            watermark(message, lsn, receiveMicros);
            return;
        }
        if (SnapshotStream.isSignalMessage(message.prefix())) {
            signalMessage(message, lsn);
            return;
        }
        if (TableCapture.isTablesMessage(message.prefix())) {
            tablesMessage(message, lsn);
            return;
        }
        byte[] payload = messages.isOwnSequences(message.prefix())
                ? SequenceMessages.opened(seal, message)
                : messages.emits(message.prefix()) ? message.content() : null;
        if (payload == null) {
            return;
        }
        LogicalMessage content = new LogicalMessage(message.prefix(), payload, message.transactional());
        if (!message.transactional()) {
            ChangeStamp stamp =
                    new ChangeStamp(Xid.NONE, null, 0, 0, message.lsn(), receiveMicros, lastCommitLsn, generation);
            sink.add(new StreamItem.Message(content, stamp, between(lastEndLsn)));
            return;
        }
        OpenTransaction txn = transactionOf("a transactional logical decoding message", lsn);
        if (txn.skipped()) {
            return;
        }
        ChangeStamp stamp =
                stamp(txn, DataCollectionCount.MESSAGES, messagesTopic, message.xid(), message.lsn(), receiveMicros);
        sink.add(new StreamItem.Message(content, stamp, offset(stamp)));
    }

    /** A signal of the signal topic, which the task wrote into the WAL (see {@code SignalMessage}). */
    private void signalMessage(LogicalDecodingMessage message, Lsn lsn) throws InterruptedException, SQLException {
        if (streams.insideChunk()) {
            log.warn("A signal message at {} is ignored: its transaction was streamed before it committed", lsn);
            return;
        }
        if (!message.transactional()) {
            snapshot.signal(message); // refused, with a WARN
            return;
        }
        OpenTransaction txn = transactionOf("a signal message", lsn);
        if (!txn.skipped()) {
            takeEffect(txn, snapshot.signal(message));
        }
    }

    /**
     * The tables the publication sends, as the connector's new-table watch wrote them into the WAL: the offsets carry
     * them from the transaction's END on, and the tables that joined are snapshotted. Without {@code
     * snapshot.new.tables} (no capture), it is another run's, and left.
     */
    private void tablesMessage(LogicalDecodingMessage message, Lsn lsn) throws InterruptedException, SQLException {
        TableCapture capture = snapshot.capture();
        if (capture == null) {
            return;
        }
        if (streams.insideChunk()) {
            log.warn("A tables message at {} is ignored: its transaction was streamed before it committed", lsn);
            return;
        }
        TableCapture.Change change = capture.received(message);
        if (change == null) {
            return;
        }
        OpenTransaction txn = transactionOf("a tables message", lsn);
        if (txn.skipped()) {
            return;
        }
        announce(txn); // its END carries the new tables into the offsets
        txn.tablesFrom(change.after());
        if (!change.joined().isEmpty()) {
            takeEffect(txn, snapshot.tablesJoined(change));
        }
    }

    /**
     * A snapshot watermark. A high watermark of this run makes its transaction carry the chunk: the chunk's rows as
     * {@code op = r} records, and an END (also when there are no rows) saying where the snapshot stands. One of an
     * earlier run makes its transaction end with no records, replacing a copy that run may have left incomplete.
     */
    private void watermark(LogicalDecodingMessage message, Lsn lsn, long receiveMicros)
            throws InterruptedException, SQLException {
        SnapshotStream.Received received = snapshot.received(message);
        if (received.kind() == SnapshotStream.Kind.NONE) {
            return;
        }
        OpenTransaction txn = transactionOf("a snapshot watermark", lsn);
        if (txn.skipped()) {
            return;
        }
        announce(txn);
        if (received.kind() == SnapshotStream.Kind.ORPHAN) {
            return;
        }
        RelationDescriptor relation = relations.describe(received.relation());
        String collection = DataCollectionCount.of(relation.schema(), relation.table());
        for (TupleData row : received.rows()) {
            ChangeStamp stamp = stamp(txn, collection, relation.topic(), message.xid(), lsn, receiveMicros);
            sink.add(new StreamItem.Change(relation, Op.READ, null, row, false, stamp, offset(stamp)));
        }
        txn.carry(received.chunk(), received.progress());
    }

    /**
     * A change of the signal table: never a record. A row inserted asks the snapshot for something; what it changes
     * in the snapshot's progress holds from the transaction's END, which goes out (with no records) for that reason.
     * A signal that cannot be read is logged and left.
     */
    private void signal(OpenTransaction txn, RelationDescriptor relation, Op op, TupleData row)
            throws InterruptedException, SQLException {
        if (op != Op.CREATE || streams.insideChunk() || txn.skipped()) {
            return;
        }
        takeEffect(txn, snapshot.signal(relation, row));
    }

    /** What a signal changed in the snapshot's progress holds from its transaction's END on. */
    private void takeEffect(OpenTransaction txn, SnapshotStream.SignalOutcome outcome)
            throws InterruptedException, SQLException {
        if (outcome.changesProgress()) {
            announce(txn);
            txn.progressFrom(outcome.progress());
        }
    }

    /** Counts a record of {@code txn}, announcing the transaction first if this is its first record. */
    private ChangeStamp stamp(
            OpenTransaction txn, String collection, String topic, long messageXid, Lsn lsn, long receiveMicros)
            throws InterruptedException, SQLException {
        announce(txn);
        long subxid = messageXid == Xid.NONE ? txn.xid() : messageXid;
        long position = txn.count(collection, topic, subxid);
        long time = txn.streamed() ? receiveMicros : txn.commitTimeMicros();
        return new ChangeStamp(
                txn.xid(),
                txn.streamed() ? subxid : null,
                txn.ordinal(),
                position,
                lsn,
                time,
                lastCommitLsn,
                generation);
    }

    /** The captured tables every offset carries; {@code null} when they are not tracked. */
    private String tables() {
        TableCapture capture = snapshot.capture();
        return capture == null ? null : capture.text();
    }

    private SourceOffset offset(ChangeStamp stamp) {
        return offsetAt(lastEndLsn, stamp.xid(), stamp.ordinal(), stamp.lsn());
    }

    private SourceOffset between(Lsn endLsn) {
        return offsetAt(endLsn, null, null, null);
    }

    /** Besides the position, every offset carries the snapshot's progress, the captured tables and a kept key. */
    private SourceOffset offsetAt(Lsn endLsn, Long xid, Long ordinal, Lsn changeLsn) {
        return new SourceOffset(
                endLsn, generation, xid, ordinal, changeLsn, snapshotProgress, tables(), seal.keptKey());
    }

    /** BEGIN goes out lazily, with the first record, so that a transaction with none leaves no trace. */
    private void announce(OpenTransaction txn) throws InterruptedException, SQLException {
        if (txn.announced()) {
            return;
        }
        txn.announce();
        if (beginMarkers) {
            Marker begin = new Marker.Begin(generation, txn.xid(), txn.commitLsn(), txn.commitTimeMicros());
            sink.add(new StreamItem.MarkerItem(begin, offsetAt(lastEndLsn, txn.xid(), null, null)));
        }
    }

    private OpenTransaction transactionOf(String what, Lsn lsn) {
        if (streams.insideChunk()) {
            return streams.chunkTransaction();
        }
        if (current == null) {
            throw new ConnectException("pgoutput sent " + what + " outside any transaction at LSN " + lsn);
        }
        return current;
    }

    private void begin(BeginMessage message, Lsn lsn) {
        if (streams.insideChunk() || current != null) {
            throw new ConnectException("pgoutput sent Begin of xid " + message.xid() + " at LSN " + lsn + " while "
                    + (current != null ? "xid " + current.xid() : "a streamed chunk") + " is open");
        }
        boolean alreadyEmitted = message.finalLsn().compareTo(resumeLsn) < 0;
        current = new OpenTransaction(
                message.xid(), false, message.finalLsn(), message.commitTimeMicros(), alreadyEmitted);
    }

    private void commit(CommitMessage message, Lsn lsn) throws InterruptedException, SQLException {
        if (current == null) {
            throw new ConnectException("pgoutput sent Commit at LSN " + lsn + " outside any transaction");
        }
        if (!message.commitLsn().equals(current.commitLsn())) {
            throw new ConnectException("Commit of xid " + current.xid() + " has commit LSN " + message.commitLsn()
                    + ", but its Begin announced " + current.commitLsn());
        }
        OpenTransaction txn = current;
        current = null;
        end(txn, message.commitLsn(), message.endLsn(), message.commitTimeMicros());
    }

    /** Closes a committed transaction: its END marker if anything of it was emitted, and the new offset. */
    private void end(OpenTransaction txn, Lsn commitLsn, Lsn endLsn, long commitTimeMicros)
            throws InterruptedException, SQLException {
        lastEndLsn = Lsn.max(lastEndLsn, endLsn);
        lastCommitLsn = commitLsn;
        if (!txn.announced()) {
            return;
        }
        List<DataCollectionCount> counts = txn.dataCollections();
        long events = counts.stream().mapToLong(DataCollectionCount::eventCount).sum();
        Marker end = new Marker.End(
                generation, txn.xid(), commitLsn, endLsn, commitTimeMicros, events, counts, txn.snapshotChunk());
        if (txn.changesProgress()) {
            snapshotProgress = txn.progressAfter(); // only the END's offset says the chunk is out
        }
        if (txn.tablesAfter() != null) {
            snapshot.capture().committed(txn.tablesAfter());
        }
        sink.add(new StreamItem.MarkerItem(end, between(lastEndLsn)));
    }

    private void relation(RelationMessage message) {
        RelationMessage scoped = streams.insideChunk() ? message.scopedTo(streams.chunkXid()) : message;
        RelationDescriptor relation = relations.apply(scoped);
        snapshot.relationChanged(scoped);
        keylessTables.warnOnce(relation);
    }

    private void streamCommit(StreamCommitMessage message, Lsn lsn) throws InterruptedException, SQLException {
        OpenTransaction txn = streams.commit(message.xid(), lsn);
        relations.commitStream(message.xid());
        snapshot.streamedCommit(message.xid());
        end(txn, message.commitLsn(), message.endLsn(), message.commitTimeMicros());
    }

    /** Aborts of a transaction that emitted nothing here have nothing to cancel, so they leave no marker. */
    private void streamAbort(StreamAbortMessage message, long receiveMicros) throws InterruptedException, SQLException {
        long xid = message.xid();
        OpenTransaction txn = streams.get(xid);
        if (txn == null) {
            return;
        }
        boolean whole = message.subxid() == xid;
        if (whole) {
            streams.remove(xid);
            relations.abortStream(xid);
        }
        if (whole ? txn.announced() : txn.abortSubtransaction(message.subxid())) {
            Marker abort = new Marker.Abort(
                    generation, Math.floorDiv(receiveMicros, 1000L), xid, message.subxid(), message.abortLsn());
            sink.add(new StreamItem.MarkerItem(abort, offsetAt(lastEndLsn, xid, null, null)));
        }
    }
}
