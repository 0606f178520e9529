package dev.pglane.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.pglane.local.kafka.CommittedTransaction;
import dev.pglane.local.kafka.WireRecord;
import dev.pglane.local.stack.PostgresNode;
import dev.pglane.local.stack.PostgresVersion;
import dev.pglane.wire.envelope.ChangeEvent;
import dev.pglane.wire.marker.Marker;
import java.sql.SQLException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.stream.IntStream;
import java.util.stream.Stream;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The source task is restarted over REST while a large transaction is on its way to Kafka. The next run announces
 * a greater generation and sends what was cut off again; a consumer following the discard rule rebuilds exactly
 * the committed transactions, each once and whole.
 */
@Timeout(value = 300, unit = TimeUnit.SECONDS)
class SourceRestartIT {
    /** Rows of the large transaction that the streaming scenario holds open across the restart. */
    private static final int LARGE_ROWS = 50_000;
    /**
     * Rows of the large transaction the restart must catch while the connector emits it, after its commit. The
     * restart races the emission: the test sees the first record on Kafka, then asks for the restart, and
     * meanwhile the task goes on emitting. Sizing the transaction alone did not hold: 50,000 rows were sometimes all
     * out before the task stopped, and 200,000 once the example producer got lz4 and 128 KiB batches.
     */
    private static final int EMITTED_ROWS = 100_000;

    /**
     * So the producer is throttled by a broker quota until the restart has happened: at this rate the compressed
     * records of the transaction take tens of seconds, where the restart takes a few.
     */
    private static final double EMITTING_BYTES_PER_SECOND = 512 * 1024;

    private static final Duration ARRIVAL = Duration.ofSeconds(120);

    @RegisterExtension
    static final SharedWorker worker = new SharedWorker();

    @RegisterExtension
    static final SourceServers servers = new SourceServers();

    static Stream<Arguments> versionsAndModes() {
        return SourceServers.versions().stream()
                .flatMap(version -> Stream.of(Arguments.of(version, "off"), Arguments.of(version, "on")));
    }

    @ParameterizedTest(name = "{0}, streaming {1}")
    @MethodSource("versionsAndModes")
    @DisplayName("a task restart in the middle of a large transaction loses nothing and duplicates nothing")
    void restartMidTransaction(PostgresVersion version, String streaming) throws Exception {
        PostgresNode source = servers.of(version);
        String name = "restart_" + streaming + "_pg" + version.major();
        SqlSession.execute(
                source,
                "CREATE TABLE " + name + "_rows (id integer PRIMARY KEY, v integer)",
                "CREATE TABLE " + name + "_small (id integer PRIMARY KEY)");
        boolean streamed = streaming.equals("on");
        if (streamed) {
            streamEveryTransaction(source, version);
        }
        try (SourceConnectorRun run =
                        SourceConnectorRun.start(worker, source, name, Map.of("streaming.mode", streaming));
                SqlSession session = SqlSession.open(source)) {
            Scenario scenario = streamed ? restartWhileStreaming(run, session) : restartWhileEmitting(run, session);

            List<CommittedTransaction> rebuilt = run.awaitCommitted(scenario.xids.size(), ARRIVAL);
            assertEquals(
                    scenario.xids,
                    rebuilt.stream().map(CommittedTransaction::xid).toList(),
                    "commit order");
            CommittedTransaction large = rebuilt.get(1);
            assertEquals(scenario.largeIds, ids(large.changes()), "the large transaction, whole and in order");
            assertEquals(scenario.largeIds.size(), large.end().eventCount(), "END event_count of the large one");
            List<Marker.Start> starts = run.rebuilder().starts();
            assertEquals(2, starts.size(), "one START per run: " + starts);
            assertTrue(starts.get(1).generation() > starts.get(0).generation(), "generations grow: " + starts);
            assertEquals(
                    starts.get(1).generation(),
                    large.generation(),
                    "the large transaction was cut off and re-sent by the second run");
            run.reader().readQuietFor(run.rebuilder()::accept, Duration.ofSeconds(2));
            assertEquals(scenario.xids.size(), run.withChanges().size(), "no transaction is released twice");
        } finally {
            if (streamed) {
                SqlSession.execute(source, "ALTER SYSTEM RESET ALL", "SELECT pg_reload_conf()");
            }
        }
    }

    /** The transactions committed (in commit order) and the ids the large one must hold, in order. */
    private record Scenario(List<Long> xids, List<Integer> largeIds) {}

    /**
     * Streaming off: the server sends the large transaction after its commit; the task restarts as soon as its first
     * record is on Kafka, while the rest is still being emitted.
     */
    private Scenario restartWhileEmitting(SourceConnectorRun run, SqlSession session) throws Exception {
        String table = run.topicPrefix();
        List<Long> xids = new ArrayList<>();
        xids.add(commitSmall(session, table, 1));
        // At full speed a fast machine emits the whole transaction before the restart lands; throttled, it cannot.
        run.throttleProducer(EMITTING_BYTES_PER_SECOND);
        session.exec("INSERT INTO " + table + "_rows SELECT g, g FROM generate_series(1, ?) g", EMITTED_ROWS);
        long large = session.xid();
        session.commit();
        xids.add(large);
        xids.add(commitSmall(session, table, 2));
        awaitFirstRecordOf(run, large);

        run.restartTask();
        run.throttleProducer(null);

        xids.add(commitSmall(session, table, 3));
        return new Scenario(xids, IntStream.rangeClosed(1, EMITTED_ROWS).boxed().toList());
    }

    /**
     * Streaming on: the large transaction is streamed while it runs; the task restarts while it is still open.
     * After the restart it rolls a savepoint back (an ABORT of that subtransaction) and commits.
     */
    private Scenario restartWhileStreaming(SourceConnectorRun run, SqlSession session) throws Exception {
        String table = run.topicPrefix();
        int half = LARGE_ROWS / 2;
        List<Long> xids = new ArrayList<>();
        xids.add(commitSmall(session, table, 1));
        session.exec("INSERT INTO " + table + "_rows SELECT g, g FROM generate_series(1, ?) g", half);
        long large = session.xid();
        awaitFirstRecordOf(run, large);

        run.restartTask();

        session.exec("SAVEPOINT rolled_back");
        session.exec("INSERT INTO " + table + "_rows SELECT g, g FROM generate_series(?, ?) g", half + 1, half + 100);
        session.exec("ROLLBACK TO SAVEPOINT rolled_back");
        session.exec("INSERT INTO " + table + "_rows SELECT g, g FROM generate_series(?, ?) g", half + 101, LARGE_ROWS);
        session.commit();
        xids.add(large);
        xids.add(commitSmall(session, table, 2));
        List<Integer> ids =
                new ArrayList<>(IntStream.rangeClosed(1, half).boxed().toList());
        ids.addAll(IntStream.rangeClosed(half + 101, LARGE_ROWS).boxed().toList());
        return new Scenario(xids, ids);
    }

    private static long commitSmall(SqlSession session, String table, int id) throws SQLException {
        session.exec("INSERT INTO " + table + "_small VALUES (?)", id);
        long xid = session.xid();
        session.commit();
        return xid;
    }

    private static void awaitFirstRecordOf(SourceConnectorRun run, long xid) {
        boolean[] seen = {false};
        run.reader()
                .readUntil(
                        record -> {
                            seen[0] |= record instanceof WireRecord.Change change && change.keyXid() == xid;
                            run.rebuilder().accept(record);
                        },
                        () -> seen[0],
                        ARRIVAL,
                        () -> "waiting for the first record of xid " + xid);
    }

    private static List<Integer> ids(List<ChangeEvent> changes) {
        return changes.stream().map(event -> (Integer) event.after().get("id")).toList();
    }

    /**
     * Makes the server stream transactions while they run: at once on 16+ (a developer option meant for such
     * tests), on 14 as soon as one exceeds 64 kB of decoding memory.
     */
    static void streamEveryTransaction(PostgresNode source, PostgresVersion version) throws SQLException {
        SqlSession.execute(
                source,
                version.major() >= 16
                        ? "ALTER SYSTEM SET debug_logical_replication_streaming = immediate"
                        : "ALTER SYSTEM SET logical_decoding_work_mem = '64kB'",
                "SELECT pg_reload_conf()");
    }
}
