package dev.pglane.local.bench.sustained;

import dev.pglane.local.stack.PostgresNode;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Duration;

/** The source's logical replication slots, by name (bound as values). */
final class Slots {
    private static final Duration POLL = Duration.ofMillis(100);

    private Slots() {}

    /** A pgoutput slot at the source's current position. */
    static void create(PostgresNode source, String slot) throws SQLException {
        query(source, "SELECT count(*) FROM pg_create_logical_replication_slot(?, 'pgoutput')", slot);
    }

    /** Drops {@code slot} if it exists and no walsender holds it any more. */
    static void drop(PostgresNode source, String slot) throws SQLException {
        query(
                source,
                "SELECT count(pg_drop_replication_slot(slot_name)) FROM pg_replication_slots WHERE slot_name = ?",
                slot);
    }

    /**
     * Waits until a walsender streams from {@code slot}: a connector that creates its own slot has started reading
     * only then, and a change committed before would be lost to it.
     */
    static void awaitActive(PostgresNode source, String slot, Duration timeout)
            throws SQLException, InterruptedException {
        long deadline = System.nanoTime() + timeout.toNanos();
        while (!isActive(source, slot)) {
            if (System.nanoTime() > deadline) {
                throw new IllegalStateException("no walsender streams from slot " + slot + " after " + timeout);
            }
            Thread.sleep(POLL.toMillis());
        }
    }

    /** Waits until no walsender streams from {@code slot} (its reader is gone). */
    static void awaitReleased(PostgresNode source, String slot, Duration timeout)
            throws SQLException, InterruptedException {
        long deadline = System.nanoTime() + timeout.toNanos();
        while (isActive(source, slot)) {
            if (System.nanoTime() > deadline) {
                throw new IllegalStateException(
                        "slot " + slot + " still streams " + timeout + " after its reader left");
            }
            Thread.sleep(POLL.toMillis());
        }
    }

    static boolean isActive(PostgresNode source, String slot) throws SQLException {
        return query(source, "SELECT count(*) FROM pg_replication_slots WHERE slot_name = ? AND active", slot) > 0;
    }

    private static long query(PostgresNode source, String sql, String slot) throws SQLException {
        try (Connection connection = source.open();
                PreparedStatement statement = connection.prepareStatement(sql)) {
            statement.setString(1, slot);
            try (ResultSet rs = statement.executeQuery()) {
                rs.next();
                return rs.getLong(1);
            }
        }
    }
}
