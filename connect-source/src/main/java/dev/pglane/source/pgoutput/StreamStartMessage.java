package dev.pglane.source.pgoutput;

/**
 * {@code 'S'}: a chunk of an in-progress (streamed) transaction starts.
 *
 * @param xid the top-level transaction xid
 * @param firstSegment this is the first chunk of {@code xid}: any earlier partial copy must be discarded
 */
public record StreamStartMessage(long xid, boolean firstSegment) implements PgOutputMessage {}
