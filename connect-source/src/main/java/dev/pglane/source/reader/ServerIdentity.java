package dev.pglane.source.reader;

import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;

/**
 * The source server as {@code IDENTIFY_SYSTEM} names it on the replication connection: the system identifier
 * initdb gave the cluster (physical replicas and backups keep it) and the current timeline. Each session announces
 * it in its START marker, so that a consumer can tell a different server under the same topic prefix, whose LSNs
 * cannot be compared with the ones it has seen.
 *
 * @param systemId the system identifier, decimal (an unsigned 64-bit number)
 * @param timeline the timeline the server is on
 */
public record ServerIdentity(String systemId, long timeline) {

    /** Asks the server; {@code connection} must be a replication connection in simple query mode. */
    static ServerIdentity of(Connection connection) throws SQLException {
        try (Statement st = connection.createStatement();
                ResultSet rs = st.executeQuery("IDENTIFY_SYSTEM")) {
            rs.next();
            return new ServerIdentity(rs.getString("systemid"), rs.getLong("timeline"));
        }
    }
}
