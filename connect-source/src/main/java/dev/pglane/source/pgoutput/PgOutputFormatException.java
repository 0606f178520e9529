package dev.pglane.source.pgoutput;

/**
 * A pgoutput message that does not follow the protocol: truncated, with trailing bytes, an unknown tag, an
 * impossible value, or a message pglane never asks for (two-phase). The message names the tag, the field and
 * the byte offset within the pgoutput message; the replication reader adds the LSN it was received at.
 */
public final class PgOutputFormatException extends RuntimeException {

    private static final long serialVersionUID = 1L;

    public PgOutputFormatException(String message) {
        super(message);
    }
}
