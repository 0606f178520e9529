package dev.pglane.source.pgoutput;

import dev.pglane.wire.Lsn;
import java.util.Arrays;

/**
 * {@code 'M'}: the output of {@code pg_logical_emit_message} (sent only with the {@code messages} option).
 *
 * @param xid the streamed (sub)transaction xid, or 0 outside a stream
 * @param transactional emitted inside its transaction (delivered at commit) rather than immediately
 * @param lsn the message's WAL position
 * @param prefix the prefix the application chose
 * @param content the raw payload
 */
public record LogicalDecodingMessage(long xid, boolean transactional, Lsn lsn, String prefix, byte[] content)
        implements PgOutputMessage {

    /** Equality by content, so that messages compare like the other records. */
    @Override
    public boolean equals(Object o) {
        return o instanceof LogicalDecodingMessage other
                && other.xid == xid
                && other.transactional == transactional
                && other.lsn.equals(lsn)
                && other.prefix.equals(prefix)
                && Arrays.equals(other.content, content);
    }

    @Override
    public int hashCode() {
        return ((Long.hashCode(xid) * 31 + lsn.hashCode()) * 31 + prefix.hashCode()) * 31 + Arrays.hashCode(content);
    }

    @Override
    public String toString() {
        return "LogicalDecodingMessage[xid=" + xid + ", transactional=" + transactional + ", lsn=" + lsn + ", prefix="
                + prefix + ", content=" + content.length + " bytes]";
    }
}
