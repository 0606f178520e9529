package dev.pglane.source.pgoutput;

/**
 * One decoded pgoutput message (the payload of one XLogData frame).
 *
 * <p>Fields named {@code xid} carry the (sub)transaction xid PostgreSQL puts into messages inside a
 * streamed chunk, as an unsigned 32-bit value in a {@code long}; outside streams they are {@link
 * dev.pglane.wire.Xid#NONE}. Times are microseconds since the Unix epoch, already converted from
 * PostgreSQL's 2000-01-01 epoch.
 */
public sealed interface PgOutputMessage
        permits BeginMessage,
                CommitMessage,
                OriginMessage,
                RelationMessage,
                TypeMessage,
                InsertMessage,
                UpdateMessage,
                DeleteMessage,
                TruncateMessage,
                LogicalDecodingMessage,
                StreamStartMessage,
                StreamStopMessage,
                StreamCommitMessage,
                StreamAbortMessage {}
