package dev.pglane.source.reader;

import dev.pglane.source.pgoutput.StreamStartMessage;
import dev.pglane.wire.Lsn;
import dev.pglane.wire.Xid;
import java.util.HashMap;
import java.util.Map;
import org.apache.kafka.connect.errors.ConnectException;

/**
 * The transactions pgoutput streams before they commit ({@code streaming=on}): every one with a chunk sent and no
 * Stream Commit or Abort yet, and which of them the chunk now open belongs to. It checks that Stream Start, Stop and
 * Commit come where the protocol allows them. Used by the reader thread only.
 */
final class StreamedTransactions {
    private final Map<Long, OpenTransaction> open = new HashMap<>();
    private boolean insideChunk;
    private long chunkXid = Xid.NONE;

    /** True while a chunk is open: its messages carry their xid. */
    boolean insideChunk() {
        return insideChunk;
    }

    /** The xid of the open chunk's transaction. */
    long chunkXid() {
        return chunkXid;
    }

    /** The open chunk's transaction; call it only inside a chunk. */
    OpenTransaction chunkTransaction() {
        return open.get(chunkXid);
    }

    boolean isEmpty() {
        return open.isEmpty();
    }

    /**
     * Opens a chunk, and with the first one its transaction.
     *
     * @param nonStreamedOpen the xid of a transaction open outside streaming, or {@code null}
     */
    void start(StreamStartMessage message, Lsn lsn, long receiveMicros, Long nonStreamedOpen) {
        if (insideChunk || nonStreamedOpen != null) {
            throw new ConnectException("pgoutput sent Stream Start of xid " + message.xid() + " at LSN " + lsn
                    + " while " + (nonStreamedOpen != null ? "xid " + nonStreamedOpen : "the chunk of xid " + chunkXid)
                    + " is open");
        }
        boolean known = open.containsKey(message.xid());
        if (message.firstSegment() == known) {
            throw new ConnectException("pgoutput sent Stream Start of xid " + message.xid() + " at LSN " + lsn
                    + (known ? " as a first segment, but the xid is already streaming" : " without its first segment"));
        }
        if (!known) {
            open.put(message.xid(), new OpenTransaction(message.xid(), true, Lsn.INVALID, receiveMicros, false));
        }
        insideChunk = true;
        chunkXid = message.xid();
    }

    void stop(Lsn lsn) {
        if (!insideChunk) {
            throw new ConnectException("pgoutput sent Stream Stop at LSN " + lsn + " outside a streamed chunk");
        }
        insideChunk = false;
        chunkXid = Xid.NONE;
    }

    /** Removes the transaction that Stream Commit names and returns it. */
    OpenTransaction commit(long xid, Lsn lsn) {
        OpenTransaction txn = insideChunk ? null : open.remove(xid);
        if (txn == null) {
            throw new ConnectException("pgoutput sent Stream Commit of xid " + xid + " at LSN " + lsn
                    + (insideChunk ? " inside a streamed chunk" : ", but no chunk of it was streamed"));
        }
        return txn;
    }

    /** The streamed transaction {@code xid}, or {@code null} if none of it was streamed. */
    OpenTransaction get(long xid) {
        return open.get(xid);
    }

    void remove(long xid) {
        open.remove(xid);
    }
}
