package dev.pglane.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.pglane.local.kafka.CommittedTransaction;
import dev.pglane.local.kafka.WireRecord;
import dev.pglane.local.stack.PostgresNode;
import dev.pglane.local.stack.PostgresVersion;
import dev.pglane.wire.envelope.ChangeEvent;
import dev.pglane.wire.envelope.Op;
import dev.pglane.wire.marker.Marker;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Transactions far larger than anything the connector may hold: one of a million rows arrives whole and in order
 * with the connector's memory flat, and a large streamed transaction that rolls back ends in an ABORT marker that
 * leaves a consumer nothing to apply. The million rows run on the default major only: they test the connector's
 * memory and order, not the server, and take a minute and a half per major.
 */
@Timeout(value = 420, unit = TimeUnit.SECONDS)
class SourceLargeTransactionIT {
    private static final int MILLION = 1_000_000;
    private static final int STREAMED_ROWS = 20_000;

    /**
     * How much the live heap may grow while the transaction passes through. Holding its records would take about
     * 1 KB each (a SourceRecord with its offset map, its envelope, source and transaction structs and the row):
     * about 1 GB for a million, more than the whole test JVM (-Xmx1g). What may grow legitimately are buffers of
     * fixed size: the connector's bounded queues (a few thousand records), the producer's buffer (32 MiB), the
     * broker's and the test consumer's fetches (16 MiB); measured, they add 35–45 MiB. 256 MiB fails any
     * design that keeps a quarter of the transaction.
     */
    private static final long HEAP_GROWTH_BOUND = 256L * 1024 * 1024;

    /**
     * Producer batches of up to 1 MiB instead of 16 KiB: the example's JSON records with schemas are a few KiB
     * each, so the default batch holds only a handful, and the million records would take twice as long.
     */
    private static final Map<String, String> LARGE_BATCHES =
            Map.of("producer.override.batch.size", "1048576", "producer.override.linger.ms", "20");

    private static final Logger log = LoggerFactory.getLogger(SourceLargeTransactionIT.class);

    @RegisterExtension
    static final SharedWorker worker = new SharedWorker();

    @RegisterExtension
    static final SourceServers servers = new SourceServers();

    @ParameterizedTest(name = "{0}")
    @MethodSource("dev.pglane.it.SourceServers#defaultVersion")
    @DisplayName("a million-row transaction arrives in order under one END, and the connector's heap stays flat")
    void millionRows(PostgresVersion version) throws Exception {
        PostgresNode source = servers.of(version);
        SqlSession.execute(source, "CREATE TABLE big (id integer PRIMARY KEY, v integer)");
        String name = "large_pg" + version.major();
        try (SourceConnectorRun run = SourceConnectorRun.start(worker, source, name, LARGE_BATCHES);
                SqlSession session = SqlSession.open(source)) {
            long baseline = HeapSampler.liveHeap();
            session.exec("INSERT INTO big SELECT g, -g FROM generate_series(1, " + MILLION + ") g");
            long xid = session.xid();
            session.commit();

            InOrderCheck check = new InOrderCheck(xid);
            try (HeapSampler heap = HeapSampler.start(Duration.ofSeconds(3))) {
                run.reader().readUntil(check, check::done, Duration.ofSeconds(300), check::toString);
                long growth = heap.max() - baseline;
                log.info(
                        "{}: live heap {} before, at most {} while a million rows passed ({} samples; {} requested"
                                + " full collections skipped by the JVM)",
                        version,
                        mib(baseline),
                        mib(heap.max()),
                        heap.samples(),
                        HeapSampler.skipped());
                assertTrue(
                        growth < HEAP_GROWTH_BOUND,
                        "live heap grew by " + mib(growth) + " (baseline " + mib(baseline) + ", max "
                                + mib(heap.max()) + " in " + heap.samples() + " samples); bound "
                                + mib(HEAP_GROWTH_BOUND));
            }
            assertEquals(MILLION, check.end.eventCount(), "END event_count");
            assertEquals(MILLION, check.end.dataCollections().get(0).eventCount(), "END count of public.big");
            assertEquals(1, check.end.dataCollections().size(), "END data_collections");
            assertEquals(1, check.ends, "one END");
        }
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("dev.pglane.it.SourceServers#versions")
    @DisplayName("streaming on: a large transaction streamed before its rollback ends in ABORT and yields nothing")
    void streamedTransactionAborts(PostgresVersion version) throws Exception {
        PostgresNode source = servers.of(version);
        // 64 kB is the minimum: the server streams any transaction larger than that while it runs
        SqlSession.execute(
                source,
                "CREATE TABLE streamed (id integer PRIMARY KEY, v text)",
                "CREATE TABLE after_abort (id integer PRIMARY KEY)",
                "ALTER SYSTEM SET logical_decoding_work_mem = '64kB'",
                "SELECT pg_reload_conf()");
        String name = "streamed_pg" + version.major();
        try (SourceConnectorRun run = SourceConnectorRun.start(worker, source, name, Map.of("streaming.mode", "on"));
                SqlSession session = SqlSession.open(source)) {
            session.exec("INSERT INTO streamed SELECT g, repeat('x', 100) FROM generate_series(1, ?) g", STREAMED_ROWS);
            long aborted = session.xid();
            long[] streamedRecords = {0};
            Consumer<WireRecord> counting = record -> {
                if (record instanceof WireRecord.Change change && change.keyXid() == aborted) {
                    streamedRecords[0]++;
                }
                run.rebuilder().accept(record);
            };
            // roll back only once records are on Kafka: a server whose decoding finds the transaction already
            // aborted drops it instead of streaming it
            run.reader()
                    .readUntil(
                            counting,
                            () -> streamedRecords[0] > 0,
                            Duration.ofSeconds(60),
                            () -> "waiting for the open transaction " + aborted + " to be streamed");
            session.rollback();
            session.exec("INSERT INTO after_abort VALUES (1)");
            long committed = session.xid();
            session.commit();

            run.reader()
                    .readUntil(
                            counting,
                            () -> run.rebuilder().committedCount() >= 1,
                            Duration.ofSeconds(120),
                            () -> "waiting for the transaction after the rollback: "
                                    + run.rebuilder().describe());

            List<CommittedTransaction> out = run.rebuilder().committed();
            assertEquals(
                    List.of(committed),
                    out.stream().map(CommittedTransaction::xid).toList(),
                    "only the commit");
            List<Marker.Abort> aborts = run.rebuilder().aborts();
            assertEquals(1, aborts.size(), "one ABORT: " + aborts);
            assertEquals(aborted, aborts.get(0).xid());
            assertTrue(aborts.get(0).isTopLevel(), "the whole transaction aborted: " + aborts.get(0));
        } finally {
            SqlSession.execute(source, "ALTER SYSTEM RESET logical_decoding_work_mem", "SELECT pg_reload_conf()");
        }
    }

    /**
     * Checks the big transaction record by record without keeping any: inserts of ids 1, 2, ... in total_order,
     * then its END. Records of other transactions must not appear.
     */
    private static final class InOrderCheck implements Consumer<WireRecord> {
        private final long xid;
        private long received;
        private int ends;
        private Marker.End end;

        InOrderCheck(long xid) {
            this.xid = xid;
        }

        @Override
        public void accept(WireRecord record) {
            if (record instanceof WireRecord.MarkerRecord marker) {
                if (marker.marker() instanceof Marker.End e && e.xid() == xid) {
                    end = e;
                    ends++;
                } else if (marker.marker() instanceof Marker.End e) {
                    // PostgreSQL 14 sends the empty commits of catalog-only work, e.g. autovacuum's ANALYZE
                    assertEquals(0, e.eventCount(), "END of another transaction with records: " + e);
                }
                return;
            }
            ChangeEvent event = ((WireRecord.Change) record).event();
            long next = received + 1;
            assertEquals(xid, event.transaction().xid(), "record " + next + " of another transaction");
            assertEquals(Op.CREATE, event.op(), "record " + next);
            assertEquals(next, event.transaction().totalOrder(), "total_order of record " + next);
            assertEquals((int) next, event.after().get("id"), "id of record " + next + " (stream order)");
            assertEquals((int) -next, event.after().get("v"), "v of record " + next);
            received = next;
        }

        boolean done() {
            return end != null && received == MILLION;
        }

        @Override
        public String toString() {
            return "waiting for " + MILLION + " records and the END of xid " + xid + "; got " + received
                    + " records, END " + end;
        }
    }

    private static String mib(long bytes) {
        return bytes / (1024 * 1024) + " MiB";
    }
}
