package dev.pglane.source.pgoutput;

import dev.pglane.wire.Lsn;

/** Begin, Commit and Origin: the frame of a non-streamed transaction. */
final class TransactionHandlers {

    private TransactionHandlers() {}

    /** {@code Int64 final_lsn, Int64 commit_ts, Int32 xid}. */
    static BeginMessage begin(MessageCursor in) {
        int lsnOffset = in.offset();
        Lsn finalLsn = in.lsn("final_lsn");
        if (!finalLsn.isValid()) {
            // PostgreSQL's apply worker rejects it too: a commit record cannot start at 0/0.
            throw in.error("final_lsn", lsnOffset, "is 0/0, but a Begin must name its commit record");
        }
        long commitTime = in.timestamp("commit_ts");
        return new BeginMessage(finalLsn, commitTime, in.xid("xid"));
    }

    /** {@code Int8 flags, Int64 commit_lsn, Int64 end_lsn, Int64 commit_ts}. */
    static CommitMessage commit(MessageCursor in) {
        int flags = unusedFlags(in);
        Lsn commitLsn = in.lsn("commit_lsn");
        Lsn endLsn = in.lsn("end_lsn");
        return new CommitMessage(flags, commitLsn, endLsn, in.timestamp("commit_ts"));
    }

    /** {@code Int64 origin_commit_lsn, String name}. */
    static OriginMessage origin(MessageCursor in) {
        Lsn originLsn = in.lsn("origin_commit_lsn");
        return new OriginMessage(originLsn, in.string("name"));
    }

    /**
     * The {@code Int8 flags} of Commit and Stream Commit, which no PostgreSQL version sets; like PostgreSQL's own
     * worker we refuse a value we cannot interpret instead of guessing.
     */
    static int unusedFlags(MessageCursor in) {
        int offset = in.offset();
        int flags = in.int8("flags") & 0xFF;
        if (flags != 0) {
            throw in.error("flags", offset, "unrecognized flags " + flags + " (no PostgreSQL version sets any)");
        }
        return flags;
    }
}
