package dev.pglane.source.pgoutput;

import dev.pglane.wire.Lsn;

/** Stream Start, Stop, Commit and Abort: the frame of the chunks of a large in-progress transaction. */
final class StreamHandlers {

    private StreamHandlers() {}

    /** {@code Int32 xid, Int8 first_segment}. */
    static StreamStartMessage start(MessageCursor in) {
        long xid = in.xid("xid");
        int offset = in.offset();
        byte first = in.int8("first_segment");
        if (first != 0 && first != 1) {
            throw in.error("first_segment", offset, "expected 0 or 1, got " + first);
        }
        return new StreamStartMessage(xid, first == 1);
    }

    /** No fields. */
    static StreamStopMessage stop(MessageCursor in) {
        return new StreamStopMessage();
    }

    /** {@code Int32 xid, Int8 flags, Int64 commit_lsn, Int64 end_lsn, Int64 commit_ts}. */
    static StreamCommitMessage commit(MessageCursor in) {
        long xid = in.xid("xid");
        int flags = TransactionHandlers.unusedFlags(in);
        Lsn commitLsn = in.lsn("commit_lsn");
        Lsn endLsn = in.lsn("end_lsn");
        return new StreamCommitMessage(xid, flags, commitLsn, endLsn, in.timestamp("commit_ts"));
    }

    /**
     * {@code Int32 xid, Int32 subxid}, then {@code Int64 abort_lsn, Int64 abort_ts} only under protocol 4 with
     * {@code streaming=parallel}. Whether they are there is read from the message length, not assumed from
     * the options, so a server that sends them unasked (or not at all) is still understood.
     */
    static StreamAbortMessage abort(MessageCursor in, ProtocolVersion version) {
        long xid = in.xid("xid");
        long subxid = in.xid("subxid");
        if (in.remaining() == 0 || version.compareTo(ProtocolVersion.V4) < 0) {
            // Older protocols have no abort info: anything left over is reported as trailing bytes.
            return new StreamAbortMessage(xid, subxid, Lsn.INVALID, 0L);
        }
        Lsn abortLsn = in.lsn("abort_lsn");
        long rawTime = in.int64("abort_ts");
        // 0 means "no time": it comes with abort LSN 0/0 when the server learnt of the abort without a record.
        long abortTime = rawTime == 0 ? 0L : MessageCursor.unixMicros(rawTime);
        return new StreamAbortMessage(xid, subxid, abortLsn, abortTime);
    }
}
