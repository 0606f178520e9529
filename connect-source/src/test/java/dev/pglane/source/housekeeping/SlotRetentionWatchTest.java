package dev.pglane.source.housekeeping;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.pglane.connect.logging.LogCapture;
import dev.pglane.source.emit.FailureSlot;
import io.zonky.test.db.postgres.embedded.EmbeddedPostgres;
import java.io.IOException;
import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The retained-WAL watch against a real server whose slots may keep at most 48 MB: a slot that holds more than the
 * threshold is warned of once per period of repetition, with its numbers; one whose WAL the server is removing is
 * warned of as at risk.
 */
class SlotRetentionWatchTest {
    private static final long MIB = 1L << 20;
    private static EmbeddedPostgres server;

    @BeforeAll
    static void startServer() throws IOException {
        server = EmbeddedPostgres.builder()
                .setServerConfig("wal_level", "logical")
                .setServerConfig("max_slot_wal_keep_size", "48MB")
                .setServerConfig("max_wal_size", "32MB")
                .setServerConfig("min_wal_size", "32MB")
                .start();
    }

    @AfterAll
    static void stopServer() throws IOException {
        server.close();
    }

    private static SlotRetentionWatch watch(String slot, long warnBytes) {
        return new SlotRetentionWatch(
                "retention-test",
                slot,
                warnBytes,
                Duration.ofHours(1),
                name -> server.getPostgresDatabase().getConnection(),
                new FailureSlot());
    }

    @Test
    void aSlotHoldingMoreThanTheThresholdIsWarnedOfThenOneLosingWalAsAtRisk() throws SQLException {
        try (Connection c = server.getPostgresDatabase().getConnection();
                Statement st = c.createStatement();
                LogCapture log = LogCapture.start()) {
            st.execute("SELECT pg_create_logical_replication_slot('retained', 'pgoutput')");
            st.execute("CREATE TABLE filler AS SELECT g, repeat('x', 1000) AS pad FROM generate_series(1, 4000) g");

            SlotRetentionWatch large = watch("retained", MIB);
            large.check(c);
            assertTrue(large.retainedBytes() >= 2 * MIB, "retained " + large.retainedBytes());
            assertTrue(large.safeWalBytes() > 0, "max_slot_wal_keep_size limits it: " + large.safeWalBytes());
            large.check(c);
            List<String> warnings = log.warnings();
            assertEquals(1, warnings.size(), "one WARN until the repetition period has passed: " + warnings);
            assertTrue(warnings.get(0).contains("slot retained retains"), warnings.get(0));
            assertTrue(warnings.get(0).contains("wal_status reserved"), warnings.get(0));
            assertTrue(warnings.get(0).contains("Kafka or the connector is behind"), warnings.get(0));

            SlotRetentionWatch quiet = watch("retained", 1024 * MIB);
            quiet.check(c);
            assertEquals(1, log.warnings().size(), "below its threshold, a watch says nothing");

            for (int i = 0; i < 6; i++) {
                st.execute("INSERT INTO filler SELECT g, repeat('y', 1000) FROM generate_series(1, 10000) g");
            }
            st.execute("CHECKPOINT");
            quiet.check(c);
            String atRisk = log.warnings().get(log.warnings().size() - 1);
            assertTrue(atRisk.contains("wal_status unreserved") || atRisk.contains("wal_status lost"), atRisk);
            assertTrue(atRisk.contains("removes, or has removed, WAL the slot needs"), atRisk);
        }
    }

    @Test
    void aMissingSlotLeavesTheFiguresUnknown() throws SQLException {
        try (Connection c = server.getPostgresDatabase().getConnection()) {
            SlotRetentionWatch missing = watch("no_such_slot", MIB);
            missing.check(c);
            assertEquals(-1, missing.retainedBytes());
            assertEquals(-1, missing.safeWalBytes());
        }
    }
}
