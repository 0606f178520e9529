package dev.pglane.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.pglane.local.pipeline.CatchUp;
import dev.pglane.local.pipeline.Progress;
import dev.pglane.local.stack.PhysicalStandby;
import dev.pglane.local.stack.PostgresNode;
import dev.pglane.local.stack.PostgresVersion;
import dev.pglane.local.workload.ChangeWorkload;
import dev.pglane.local.workload.WorkloadSchema;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.SQLException;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * {@code slot.failover} end to end on PostgreSQL 17: a primary and a physical standby that keeps copies of its
 * failover slots ({@link PhysicalStandby}), the primary's {@code synchronized_standby_slots} naming the standby's slot.
 * The connector streams under load, the primary goes down in the middle of it, the standby is promoted and the
 * connector pointed at it: it goes on from its stored position on the standby's copy of the slot, and the target ends
 * equal to the new primary with nothing lost or applied twice.
 */
@Timeout(value = 300, unit = TimeUnit.SECONDS)
class FailoverSlotIT {
    private static final PostgresVersion VERSION = PostgresVersion.V17;
    private static final Duration SYNCED = Duration.ofSeconds(90);
    private static final Duration CATCH_UP = Duration.ofSeconds(180);
    private static final String STANDBY_SLOT = "failover_standby";

    @RegisterExtension
    static final SharedWorker worker = new SharedWorker();

    @RegisterExtension
    static final SourceServers servers = new SourceServers();

    private static Path workDir;
    private static PostgresNode primary;
    private static PostgresNode standby;

    @BeforeAll
    static void startPrimaryAndStandby() throws IOException, SQLException {
        workDir = Files.createTempDirectory("pglane-failover-");
        primary = PostgresNode.start("failover_primary", VERSION, workDir, PostgresNode.WalLevel.LOGICAL);
        standby = PhysicalStandby.start(primary, VERSION, "failover_standby", workDir, STANDBY_SLOT);
        SqlSession.execute(
                primary,
                "ALTER SYSTEM SET synchronized_standby_slots = '" + STANDBY_SLOT + "'",
                "SELECT pg_reload_conf()");
    }

    @AfterAll
    static void stopServers() throws IOException {
        try {
            if (standby != null) {
                standby.close();
            }
            if (primary != null) {
                primary.close();
            }
        } finally {
            SharedWorker.deleteRecursively(workDir);
        }
    }

    @Test
    @DisplayName("the primary goes down under load; the connector goes on from the promoted standby's copy of the slot")
    void promotionOfTheStandby() throws Exception {
        String name = "failover_pg" + VERSION.major();
        ChangeWorkload workload = new ChangeWorkload(primary.jdbcUrl(), new WorkloadSchema(name));
        workload.createTables();
        PostgresNode target = servers.targetOf(VERSION);
        try (SinkConnectorRun run = SinkConnectorRun.start(worker, primary, target, name, Map.of(), Map.of())) {
            String slot = run.source().slot();
            assertEquals("true", slotColumn(primary, slot, "failover"), "slot.failover made a failover slot");

            FaultLoad load = FaultLoad.start(workload);
            Waits.until("the sink applies", SYNCED, () -> !run.progress().isNone());
            Waits.until(
                    "the standby holds a synced copy of slot " + slot,
                    SYNCED,
                    () -> "true".equals(slotColumn(standby, slot, "(synced AND NOT temporary)")));
            Progress beforeFailover = run.progress();

            primary.stop();
            load.awaitCutBySource();
            PhysicalStandby.promote(standby);
            run.sourceMovedTo(standby);
            SqlSession.execute(
                    standby,
                    "INSERT INTO " + name + ".ledger (client, amount) SELECT -1, g FROM generate_series(1, 50) g");

            CatchUp.Result caughtUp = run.awaitCatchUp(CATCH_UP);
            assertTrue(
                    caughtUp.progress().endLsn().compareTo(beforeFailover.endLsn()) > 0,
                    "the sink applied after the promotion: " + caughtUp.progress() + " after " + beforeFailover);
            SinkReplicationIT.assertEqual(run.compare());
            List<Long> targetLedger = FaultStory.ledger(target, name);
            assertEquals(targetLedger.get(0), targetLedger.get(1), "the target's ledger rows and distinct ids");
            assertEquals(
                    FaultStory.ledger(standby, name),
                    targetLedger,
                    "ledger rows and distinct ids, new primary and target");
            SinkReplicationIT.assertProgressAtLastTransaction(run, caughtUp);
        }
    }

    /** A column (or expression over the columns) of the slot's row in pg_replication_slots, as text. */
    private static String slotColumn(PostgresNode server, String slot, String column) throws SQLException {
        try (SqlSession session = SqlSession.open(server)) {
            Object value = session.queryValue(
                    "SELECT coalesce((SELECT " + column + " FROM pg_replication_slots WHERE slot_name = ?)::text,"
                            + " 'absent')",
                    slot);
            return (String) value;
        }
    }
}
