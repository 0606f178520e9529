package dev.pglane.sink.progress;

import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;

/**
 * Makes every transaction committed so far on the target durable. Apply sessions commit with
 * {@code synchronous_commit = off} (as PostgreSQL's subscriber does), so a crash may lose the last
 * commits; one synchronous commit flushes the WAL up to its own commit record, which lies after all of
 * them. The sink runs it before it reports consumer offsets, and after it reads the applied position
 * at start, so nothing it skips or lets Kafka forget can still be lost.
 */
public final class DurabilityBarrier {
    private DurabilityBarrier() {}

    /** Runs one synchronous commit on {@code connection}, which must be in autocommit mode. */
    public static void run(Connection connection) throws SQLException {
        connection.setAutoCommit(false);
        try (Statement st = connection.createStatement()) {
            st.execute("SET LOCAL synchronous_commit = on");
            // A commit waits for the WAL flush only if its transaction wrote WAL before the commit record
            // (an xid alone does not). A transactional logical message is the smallest such write, and
            // needs no privilege or table; logical decoding consumers of the target see it only if they
            // ask for messages, under the prefix pglane.durability.
            st.execute("SELECT pg_catalog.pg_logical_emit_message(true, 'pglane.durability', '')");
            connection.commit();
        } finally {
            connection.setAutoCommit(true);
        }
    }
}
