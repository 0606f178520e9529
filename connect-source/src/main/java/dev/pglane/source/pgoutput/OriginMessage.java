package dev.pglane.source.pgoutput;

import dev.pglane.wire.Lsn;

/**
 * {@code 'O'}: the transaction was written by a session with a replication origin set up.
 *
 * @param originCommitLsn the commit LSN on the origin server ({@link Lsn#INVALID} inside streams)
 * @param name the replication origin name
 */
public record OriginMessage(Lsn originCommitLsn, String name) implements PgOutputMessage {}
