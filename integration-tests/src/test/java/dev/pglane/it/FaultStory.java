package dev.pglane.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.pglane.it.kafka.WireRecord;
import dev.pglane.it.pipeline.CatchUp;
import dev.pglane.it.pipeline.CommittedTransactions;
import dev.pglane.it.pipeline.Progress;
import dev.pglane.it.stack.ConnectorStatus;
import dev.pglane.it.stack.PostgresNode;
import dev.pglane.it.workload.ChangeWorkload;
import dev.pglane.it.workload.WorkloadSchema;
import dev.pglane.wire.Lsn;
import java.sql.SQLException;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * One fault story: a pipeline ({@link SinkConnectorRun}) over the {@link WorkloadSchema} tables plus a {@code bulk}
 * table for a large transaction, a steady {@link FaultLoad}, and the checks every story ends with.
 *
 * <p>The source streams transactions larger than {@code logical_decoding_work_mem} (see {@link
 * #streamLargeTransactions}), so a large transaction kept open reaches Kafka while it runs: a fault that comes
 * then is certainly in the middle of it, at the source (the rest is not decoded yet) and at the sink (its END
 * cannot have arrived).
 */
final class FaultStory implements AutoCloseable {
    static final Duration CATCH_UP = Duration.ofSeconds(180);
    private static final Duration ARRIVAL = Duration.ofSeconds(60);
    /** Rows of ~1 kB per half of the large transaction: far over the 64 kB that makes the server stream it. */
    private static final int HALF_ROWS = 4_000;

    private final SharedWorker worker;
    private final SinkConnectorRun run;
    private final PostgresNode source;
    private final PostgresNode target;
    private final String schema;
    private final ChangeWorkload workload;
    private SqlSession large;
    private long largeXid;

    private FaultStory(
            SharedWorker worker,
            SinkConnectorRun run,
            PostgresNode source,
            PostgresNode target,
            ChangeWorkload workload) {
        this.worker = worker;
        this.run = run;
        this.source = source;
        this.target = target;
        this.schema = run.source().topicPrefix();
        this.workload = workload;
    }

    /**
     * Creates the story's tables on the source and starts its pipeline (source streaming on, the sink with two
     * workers).
     *
     * @param name the schema, and the connectors' name
     * @param sourceChanges settings of the source connector on top of {@link SinkConnectorRun}'s
     * @param sinkChanges settings of the sink on top of {@link SinkConnectorRun}'s
     */
    static FaultStory start(
            SharedWorker worker,
            PostgresNode source,
            PostgresNode target,
            String name,
            Map<String, String> sourceChanges,
            Map<String, String> sinkChanges)
            throws SQLException {
        ChangeWorkload workload = new ChangeWorkload(source.jdbcUrl(), new WorkloadSchema(name));
        workload.createTables();
        String bulk = "CREATE TABLE " + name + ".bulk (id integer PRIMARY KEY, body text)";
        SqlSession.execute(source, bulk);
        // on the target too: a story without a large transaction sends no row of it, so the sink would not create it
        SqlSession.execute(target, "CREATE SCHEMA " + name, bulk);
        Map<String, String> sourceConfig = new HashMap<>(Map.of("streaming.mode", "on"));
        sourceConfig.putAll(sourceChanges);
        // the sink subscribes by pattern: it sees the load's topics at its next metadata refresh, 5 s in the example
        Map<String, String> sinkConfig =
                new HashMap<>(Map.of("apply.workers", "2", "consumer.override.metadata.max.age.ms", "1000"));
        sinkConfig.putAll(sinkChanges);
        return new FaultStory(
                worker,
                SinkConnectorRun.start(worker, source, target, name, sourceConfig, sinkConfig),
                source,
                target,
                workload);
    }

    /**
     * Makes the source server stream every transaction that outgrows 64 kB of decoding memory, the least it allows,
     * instead of decoding it only after its commit.
     */
    static void streamLargeTransactions(PostgresNode source) throws SQLException {
        SqlSession.execute(source, "ALTER SYSTEM SET logical_decoding_work_mem = '64kB'", "SELECT pg_reload_conf()");
    }

    SinkConnectorRun run() {
        return run;
    }

    /** Starts the steady load for {@code duration}. */
    FaultLoad startLoad(Duration duration) {
        return FaultLoad.start(workload, duration);
    }

    /** Waits until the sink has applied something: the pipeline is busy end to end. */
    Progress awaitApplying() {
        Progress[] seen = {Progress.NONE};
        Waits.until("the sink " + run.sinkName() + " applies", ARRIVAL, () -> {
            seen[0] = run.progress();
            return !seen[0].isNone();
        });
        return seen[0];
    }

    /**
     * Opens the large transaction, writes its first half, and returns once its first record is on Kafka: from now on
     * it is in flight through the pipeline and not committed. Open it before the load starts: the wait reads the
     * change topics from their beginning.
     */
    void openLargeTransaction() throws SQLException {
        large = SqlSession.open(source);
        insertBulk(1, HALF_ROWS);
        largeXid = large.xid();
        boolean[] seen = {false};
        run.source()
                .reader()
                .readUntil(
                        record -> seen[0] |= record instanceof WireRecord.Change change && change.keyXid() == largeXid,
                        () -> seen[0],
                        ARRIVAL,
                        () -> "waiting for the first streamed record of the large transaction " + largeXid);
    }

    /** Asserts that the sink has applied none of the large transaction: its END has not even been written. */
    void assertLargeTransactionNotApplied() throws SQLException {
        assertEquals(0L, bulkRows(target), "rows of the open large transaction " + largeXid + " on the target");
    }

    /** Writes the second half of the large transaction and commits it. */
    void commitLargeTransaction() throws SQLException {
        insertBulk(HALF_ROWS + 1, 2 * HALF_ROWS);
        large.commit();
        large.close();
        large = null;
    }

    private void insertBulk(int from, int to) throws SQLException {
        large.exec(
                "INSERT INTO " + schema + ".bulk SELECT g, repeat(md5(g::text), 32) FROM generate_series(?, ?) g",
                from,
                to);
    }

    /**
     * Lets a fault last {@code duration} (it is the fault's length, not a wait for something to happen), failing at
     * once if Connect reports either connector or its task failed meanwhile: they must wait and retry, not give up.
     */
    void lastFor(Duration duration) {
        long begin = System.nanoTime();
        Waits.until("the fault lasted " + duration.toSeconds() + " s", duration.plusSeconds(30), () -> {
            assertNotFailed();
            return System.nanoTime() - begin >= duration.toNanos();
        });
    }

    /** Fails if Connect reports the source or the sink (connector or task) failed. */
    void assertNotFailed() {
        for (String connector : List.of(run.source().topicPrefix(), run.sinkName())) {
            ConnectorStatus status = worker.rest().status(connector);
            assertFalse(status.hasFailed(), () -> "failed for good: " + status.describe());
        }
    }

    /**
     * Commits a few ledger rows after a fault of the source that cut the load off, so that the source has something
     * new to send once it is back.
     */
    void writeAfterFault() throws SQLException {
        SqlSession.execute(
                source,
                "INSERT INTO " + schema + ".ledger (client, amount) SELECT -1, g FROM generate_series(1, 50) g");
    }

    /** The moment of a fault: the source's WAL insert position and the sink's progress. Read both before it. */
    record Moment(Lsn sourceLsn, Progress progress) {}

    Moment moment() throws SQLException {
        Progress progress = run.progress();
        try (SqlSession session = SqlSession.open(source)) {
            Lsn lsn = Lsn.parse((String) session.queryValue("SELECT pg_current_wal_insert_lsn()::text"));
            return new Moment(lsn, progress);
        }
    }

    /**
     * The checks every story ends with, once its load has ended: the sink catches up without help; some transaction
     * committed before the fault was applied only after it (the fault hit work in flight); the target equals the
     * source; no ledger row is there twice (a transaction applied twice adds rows, not ids); the sink's progress is
     * exactly the END of the source's last transaction.
     */
    void assertRecovered(Moment fault) throws SQLException {
        CatchUp.Result caughtUp = run.awaitCatchUp(CATCH_UP);
        CommittedTransactions beforeFault = run.committedUpTo(fault.sourceLsn());
        assertTrue(
                beforeFault.lastChangeEnd().compareTo(fault.progress().endLsn()) > 0,
                "the fault came while the sink had work in flight: at the fault it had applied up to "
                        + fault.progress() + ", the source had committed " + beforeFault);
        SinkReplicationIT.assertEqual(run.compare());
        List<Long> targetLedger = ledger(target);
        assertEquals(targetLedger.get(0), targetLedger.get(1), "the target's ledger rows and distinct ids");
        assertEquals(ledger(source), targetLedger, "ledger rows and distinct ids, source and target");
        SinkReplicationIT.assertProgressAtLastTransaction(run, caughtUp);
    }

    private long bulkRows(PostgresNode server) throws SQLException {
        try (SqlSession session = SqlSession.open(server)) {
            boolean exists = (Boolean) session.queryValue("SELECT to_regclass(?) IS NOT NULL", schema + ".bulk");
            return exists ? ((Number) session.queryValue("SELECT count(*) FROM " + schema + ".bulk")).longValue() : 0;
        }
    }

    /** The ledger's rows and distinct ids; read once the load has ended. */
    private List<Long> ledger(PostgresNode server) throws SQLException {
        try (SqlSession session = SqlSession.open(server)) {
            String table = schema + ".ledger";
            long rows = ((Number) session.queryValue("SELECT count(*) FROM " + table)).longValue();
            long ids = ((Number) session.queryValue("SELECT count(DISTINCT id) FROM " + table)).longValue();
            return List.of(rows, ids);
        }
    }

    @Override
    public void close() throws SQLException {
        try {
            if (large != null) {
                large.close();
            }
        } finally {
            run.close();
        }
    }
}
