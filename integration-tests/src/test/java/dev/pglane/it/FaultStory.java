package dev.pglane.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.pglane.local.kafka.WireRecord;
import dev.pglane.local.pipeline.CatchUp;
import dev.pglane.local.pipeline.CommittedTransactions;
import dev.pglane.local.pipeline.Progress;
import dev.pglane.local.stack.ConnectorStatus;
import dev.pglane.local.stack.PostgresNode;
import dev.pglane.local.stack.PostgresVersion;
import dev.pglane.local.workload.ChangeWorkload;
import dev.pglane.local.workload.WorkloadSchema;
import dev.pglane.wire.Lsn;
import dev.pglane.wire.marker.Marker;
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
    /** The version the fault stories run on: one per run of the suite, {@code pglane.pg.version}. */
    static final PostgresVersion VERSION = PostgresVersion.fromProperty();
    /** How long the steady load goes on after the moment of the fault, so that it runs through the fault. */
    private static final Duration LOAD_AFTER_FAULT = Duration.ofSeconds(3);

    private static final Duration ARRIVAL = Duration.ofSeconds(60);
    /** Rows of ~1 kB per half of the large transaction: far over the 64 kB that makes the server stream it. */
    private static final int HALF_ROWS = 4_000;
    /** Rows per snapshot chunk of a story over existing rows. */
    static final int EXISTING_CHUNK_ROWS = 5_000;
    /**
     * Source settings of a story on exactly-once workers where the source draws the Kafka transactions' boundaries,
     * which it does for transactions it does not stream.
     */
    static final Map<String, String> CONNECTOR_BOUNDARIES =
            Map.of("transaction.boundary", "connector", "streaming.mode", "off");
    /**
     * Bytes a second the source task's producer may write while {@link #midCommittedLargeTransaction} holds it back.
     * The broker measures a new quota's rate over at least 10 s, so about ten times this goes out at once, and so does
     * the backlog of the unpaced load (much less at 25 kB/s: the large transaction's first record did not come in a
     * minute). The large transaction's {@link #RANDOM_VALUE} rows do not compress, about 8 MB, so the rest of it takes
     * over 20 s.
     */
    private static final double THROTTLED_BYTES = 250_000;
    /**
     * A bulk row's value that lz4 cannot shrink much, 1 KiB of random hex: rows repeating one md5 compress about 30
     * times, and 8,000 of them went out in the quota's first burst, before the kill. ({@code g > 0} makes the subquery
     * run for each row.)
     */
    private static final String RANDOM_VALUE =
            "(SELECT string_agg(md5(i::text || random()::text), '') FROM generate_series(1, 32) i WHERE g > 0)";

    private final SharedWorker worker;
    private final SinkConnectorRun run;
    private final PostgresNode source;
    private final PostgresNode target;
    private final String schema;
    private final ChangeWorkload workload;
    private FaultLoad load;
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
     * Creates the story's tables on the {@link #VERSION} source of {@code servers} and starts its pipeline (source
     * streaming on, the sink with two workers) to the target of that version.
     *
     * @param story the story's name; with the major appended, the schema and the connectors' name
     * @param sourceChanges settings of the source connector on top of {@link SinkConnectorRun}'s
     * @param sinkChanges settings of the sink on top of {@link SinkConnectorRun}'s
     */
    static FaultStory start(
            SharedWorker worker,
            SourceServers servers,
            String story,
            Map<String, String> sourceChanges,
            Map<String, String> sinkChanges)
            throws SQLException {
        return start(worker, servers, story, 0, sourceChanges, sinkChanges);
    }

    /**
     * As {@link #start(SharedWorker, SourceServers, String, Map, Map)}, over a source whose table {@code existing}
     * already holds {@code rows} rows when the connectors start, which the source's snapshot sends in chunks of
     * {@link #EXISTING_CHUNK_ROWS}.
     */
    static FaultStory startOverExistingRows(SharedWorker worker, SourceServers servers, String story, int rows)
            throws SQLException {
        return startOverExistingRows(worker, servers, story, rows, Map.of(), Map.of());
    }

    /** As {@link #startOverExistingRows(SharedWorker, SourceServers, String, int)}, with more settings. */
    static FaultStory startOverExistingRows(
            SharedWorker worker,
            SourceServers servers,
            String story,
            int rows,
            Map<String, String> sourceChanges,
            Map<String, String> sinkChanges)
            throws SQLException {
        Map<String, String> source = new HashMap<>(
                Map.of("snapshot.mode", "initial", "snapshot.chunk.rows", Integer.toString(EXISTING_CHUNK_ROWS)));
        source.putAll(sourceChanges);
        return start(worker, servers, story, rows, source, sinkChanges);
    }

    private static FaultStory start(
            SharedWorker worker,
            SourceServers servers,
            String story,
            int existingRows,
            Map<String, String> sourceChanges,
            Map<String, String> sinkChanges)
            throws SQLException {
        PostgresNode source = servers.of(VERSION);
        PostgresNode target = servers.targetOf(VERSION);
        String name = story + "_pg" + VERSION.major();
        streamLargeTransactions(source);
        ChangeWorkload workload = new ChangeWorkload(source.jdbcUrl(), new WorkloadSchema(name));
        workload.createTables();
        String bulk = "CREATE TABLE " + name + ".bulk (id integer PRIMARY KEY, body text)";
        String existing = "CREATE TABLE " + name + ".existing (id integer PRIMARY KEY, body text)";
        SqlSession.execute(
                source,
                bulk,
                existing,
                "INSERT INTO " + name + ".existing SELECT g, md5(g::text) FROM generate_series(1, " + existingRows
                        + ") g");
        // on the target too: a story without a large transaction sends no row of it, so the sink would not create it
        SqlSession.execute(target, "CREATE SCHEMA " + name, bulk, existing);
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
    private static void streamLargeTransactions(PostgresNode source) throws SQLException {
        SqlSession.execute(source, "ALTER SYSTEM SET logical_decoding_work_mem = '64kB'", "SELECT pg_reload_conf()");
    }

    SinkConnectorRun run() {
        return run;
    }

    PostgresNode source() {
        return source;
    }

    PostgresNode target() {
        return target;
    }

    /** The schema of the story's tables, on the source and the target. */
    String schema() {
        return schema;
    }

    /**
     * Brings the story to the point of a fault in the middle of a large transaction: the large transaction open and
     * partly on Kafka, the load running, the sink applying. Returns the moment of the fault.
     */
    Moment midLargeTransaction() throws SQLException {
        return midLargeTransaction(LOAD_AFTER_FAULT);
    }

    /** As {@link #midLargeTransaction()}, with the load going on for {@code loadAfter} from the moment of the fault. */
    Moment midLargeTransaction(Duration loadAfter) throws SQLException {
        openLargeTransaction();
        Moment moment = underLoad(loadAfter);
        assertEquals(0L, bulkRows(target), "rows of the open large transaction " + largeXid + " on the target");
        return moment;
    }

    /**
     * For a source that does not stream transactions: the sink applying, commits a large transaction while the source
     * task's producer may write {@link #THROTTLED_BYTES} bytes a second, and returns the moment its first record is on
     * Kafka. Its records then take seconds to reach Kafka, in one Kafka transaction open at that moment; {@link
     * #releaseProducer} lifts the limit. The load pauses around the commit until the source has sent all it wrote:
     * the unpaced load's backlog, held back by the limit too, kept the first record from coming for over a minute.
     */
    Moment midCommittedLargeTransaction() throws SQLException {
        load = FaultLoad.start(workload);
        awaitApplying();
        try (SqlSession session = SqlSession.open(source)) {
            large = session;
            insertBulk(1, 2 * HALF_ROWS, RANDOM_VALUE);
            largeXid = session.xid();
            workload.pause();
            try {
                awaitSourceSentAll();
                run.source().throttleProducer(THROTTLED_BYTES);
                session.commit();
            } finally {
                workload.resume();
            }
        } finally {
            large = null;
        }
        awaitFirstRecordOfLarge("waiting for the first record of the committed large transaction " + largeXid);
        Moment moment = moment();
        load.endIn(LOAD_AFTER_FAULT);
        return moment;
    }

    /** Commits a one-row transaction and waits for its END on Kafka: everything committed before it is there too. */
    private void awaitSourceSentAll() throws SQLException {
        long xid;
        try (SqlSession session = SqlSession.open(source)) {
            session.exec("INSERT INTO " + schema + ".bulk VALUES (0, 'sent all')");
            xid = session.xid();
            session.commit();
        }
        boolean[] seen = {false};
        run.source()
                .reader()
                .readUntil(
                        record -> seen[0] |= record instanceof WireRecord.MarkerRecord marker
                                && marker.marker() instanceof Marker.End end
                                && end.xid() == xid,
                        () -> seen[0],
                        ARRIVAL,
                        () -> "waiting for the END of " + xid + ", committed after the load paused");
    }

    /** The xid of the story's large transaction; 0 before it is opened. */
    long largeXid() {
        return largeXid;
    }

    /** Rows of the story's large transaction. */
    static int largeRows() {
        return 2 * HALF_ROWS;
    }

    /** Lifts the limit {@link #midCommittedLargeTransaction} put on the source task's producer. */
    void releaseProducer() {
        run.source().throttleProducer(null);
    }

    /**
     * Brings a story over existing rows to the point of a fault in the middle of its snapshot: the load running, the
     * target holding some chunks of {@code existing} and not all. Returns the moment of the fault.
     */
    Moment midSnapshot(int existingRows) throws SQLException {
        return midSnapshot(existingRows, LOAD_AFTER_FAULT);
    }

    /** As {@link #midSnapshot(int)}, with the load going on for {@code loadAfter} from the moment of the fault. */
    Moment midSnapshot(int existingRows, Duration loadAfter) throws SQLException {
        load = FaultLoad.start(workload);
        long[] seen = {0};
        Waits.until("the sink applies the first snapshot chunks", ARRIVAL, () -> {
            seen[0] = rows(target, "existing");
            return seen[0] >= 3L * EXISTING_CHUNK_ROWS;
        });
        Moment moment = moment();
        load.endIn(loadAfter);
        assertTrue(seen[0] < existingRows, "the snapshot was not over at the fault: " + seen[0] + " rows");
        return moment;
    }

    /**
     * Brings the story to the point of a fault under load: the load running, the sink applying. The load goes on
     * for {@link #LOAD_AFTER_FAULT} from this moment, however long the pipeline took to apply the first of it.
     */
    Moment underLoad() throws SQLException {
        return underLoad(LOAD_AFTER_FAULT);
    }

    /** As {@link #underLoad()}, with the load going on for {@code loadAfter} from the moment of the fault. */
    Moment underLoad(Duration loadAfter) throws SQLException {
        load = FaultLoad.start(workload);
        awaitApplying();
        Moment moment = moment();
        load.endIn(loadAfter);
        assertTrue(load.isRunning(), "the load still runs at the fault");
        return moment;
    }

    /** Waits until the sink has applied something: the pipeline is busy end to end. */
    private void awaitApplying() {
        Progress[] seen = {Progress.NONE};
        Waits.until("the sink " + run.sinkName() + " applies", ARRIVAL, () -> {
            seen[0] = run.progress();
            return !seen[0].isNone();
        });
    }

    /**
     * Opens the large transaction, writes its first half, and returns once its first record is on Kafka: from now on
     * it is in flight through the pipeline and not committed. Opened before the load starts: the wait reads the
     * change topics from their beginning.
     */
    private void openLargeTransaction() throws SQLException {
        large = SqlSession.open(source);
        insertBulk(1, HALF_ROWS);
        largeXid = large.xid();
        awaitFirstRecordOfLarge("waiting for the first streamed record of the large transaction " + largeXid);
    }

    private void awaitFirstRecordOfLarge(String waiting) {
        boolean[] seen = {false};
        run.source()
                .reader()
                .readUntil(
                        record -> seen[0] |= record instanceof WireRecord.Change change && change.keyXid() == largeXid,
                        () -> seen[0],
                        ARRIVAL,
                        () -> waiting);
    }

    /** Writes the second half of the large transaction and commits it. */
    private void commitLargeTransaction() throws SQLException {
        insertBulk(HALF_ROWS + 1, 2 * HALF_ROWS);
        large.commit();
        large.close();
        large = null;
    }

    private void insertBulk(int from, int to) throws SQLException {
        insertBulk(from, to, "repeat(md5(g::text), 32)");
    }

    /** Inserts rows {@code from} to {@code to} into the bulk table, each one's value given by {@code value} of g. */
    private void insertBulk(int from, int to, String value) throws SQLException {
        large.exec("INSERT INTO " + schema + ".bulk SELECT g, " + value + " FROM generate_series(?, ?) g", from, to);
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
     * After a fault the connectors should survive: commits the large transaction (if open), waits for the load to
     * end on its own, then {@link #assertRecovered}.
     */
    void assertRecoveredFrom(Moment fault) throws SQLException {
        if (large != null) {
            commitLargeTransaction();
        }
        load.await();
        assertRecovered(fault);
    }

    /**
     * After a fault of the source server, which cut the load's sessions off: commits a few ledger rows, so that the
     * source has something new to send once it is back, then {@link #assertRecovered}.
     */
    void assertRecoveredFromSourceFault(Moment fault) throws SQLException {
        load.awaitCutBySource();
        SqlSession.execute(
                source,
                "INSERT INTO " + schema + ".ledger (client, amount) SELECT -1, g FROM generate_series(1, 50) g");
        assertRecovered(fault);
    }

    /** The moment of a fault: the source's WAL insert position and the sink's progress. Read both before it. */
    record Moment(Lsn sourceLsn, Progress progress) {}

    private Moment moment() throws SQLException {
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
    private void assertRecovered(Moment fault) throws SQLException {
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
        return rows(server, "bulk");
    }

    /** Rows of the story's table {@code table} on {@code server}; 0 while it does not exist. */
    private long rows(PostgresNode server, String table) throws SQLException {
        String name = schema + "." + table;
        try (SqlSession session = SqlSession.open(server)) {
            boolean exists = (Boolean) session.queryValue("SELECT to_regclass(?) IS NOT NULL", name);
            return exists ? ((Number) session.queryValue("SELECT count(*) FROM " + name)).longValue() : 0;
        }
    }

    /** The ledger's rows and distinct ids; read once the load has ended. */
    private List<Long> ledger(PostgresNode server) throws SQLException {
        return ledger(server, schema);
    }

    /**
     * The rows and distinct ids of the {@code ledger} table in {@code schema}: a transaction applied twice adds rows,
     * not ids.
     */
    static List<Long> ledger(PostgresNode server, String schema) throws SQLException {
        try (SqlSession session = SqlSession.open(server)) {
            String table = schema + ".ledger";
            long rows = ((Number) session.queryValue("SELECT count(*) FROM " + table)).longValue();
            long ids = ((Number) session.queryValue("SELECT count(DISTINCT id) FROM " + table)).longValue();
            return List.of(rows, ids);
        }
    }

    @Override
    public void close() throws SQLException {
        if (load != null) {
            load.endIn(Duration.ZERO);
        }
        try {
            if (large != null) {
                large.close();
            }
        } finally {
            run.close();
        }
    }
}
