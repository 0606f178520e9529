package dev.pglane.source.reader;

import java.sql.SQLException;

/**
 * Whether the server still serves this session's replication stream. The walsender stays silent on an idle server
 * whose client confirms regularly, and pgjdbc hides the keepalives it does send, so a stream whose connection died
 * without a word (a host gone, a network partition, a NAT that forgot it) looks just like an idle one. The reader
 * asks this after a few quiet status intervals.
 */
@FunctionalInterface
public interface StreamLiveness {
    /** Never fails: for a reader whose stream cannot go silent, such as one in a test of other things. */
    StreamLiveness ASSUMED = () -> null;

    /**
     * @return {@code null} if the stream is served, else what the server says instead (for the error)
     * @throws SQLException if the server cannot be asked, which means it is unreachable too
     */
    String problem() throws SQLException;
}
