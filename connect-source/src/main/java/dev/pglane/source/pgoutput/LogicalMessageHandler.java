package dev.pglane.source.pgoutput;

import dev.pglane.wire.Lsn;

/** Message: the output of {@code pg_logical_emit_message}. */
final class LogicalMessageHandler {

    /** Bit 0 of the flags: emitted as part of its transaction. */
    private static final int TRANSACTIONAL = 1;

    private LogicalMessageHandler() {}

    /** {@code xid?, Int8 flags, Int64 lsn, String prefix, Int32 length, Byte[length] content}. */
    static LogicalDecodingMessage message(MessageCursor in) {
        long xid = in.streamedXid();
        boolean transactional = (in.int8("flags") & TRANSACTIONAL) != 0;
        Lsn lsn = in.lsn("lsn");
        String prefix = in.string("prefix");
        int length = in.count32("content length");
        return new LogicalDecodingMessage(xid, transactional, lsn, prefix, in.bytes("content", length));
    }
}
