package dev.pglane.it;

import static dev.pglane.it.SinkReplicationIT.assertEqual;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.pglane.connect.logging.LogCapture;
import dev.pglane.local.stack.PostgresNode;
import dev.pglane.local.stack.PostgresVersion;
import dev.pglane.local.stack.TaskMetrics;
import dev.pglane.wire.Lsn;
import java.sql.SQLException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.serialization.StringSerializer;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Databases that already have rows: the source connector's snapshot sends them while an application keeps writing,
 * through a real broker and worker into an empty target. Once the sink reports the snapshot complete and has caught
 * up, the target equals the source, whichever tables: a large one, one without a key, one of every type family and
 * a partitioned one.
 */
@Timeout(value = 600, unit = TimeUnit.SECONDS)
class SnapshotIT {
    /** The large table's rows on the default major; the others get a tenth, to keep the suite's time. */
    private static final int ACCOUNTS = 1_000_000;

    private static final Duration SNAPSHOT = Duration.ofSeconds(300);
    private static final Duration CATCH_UP = Duration.ofSeconds(180);

    @RegisterExtension
    static final SharedWorker worker = new SharedWorker();

    @RegisterExtension
    static final SourceServers servers = new SourceServers();

    @ParameterizedTest(name = "{0}")
    @MethodSource("dev.pglane.it.SourceServers#versions")
    @DisplayName("existing rows of a large, a keyless, an every-type and a partitioned table arrive while the"
            + " application writes to them (and moves rows between partitions), into a target holding old rows that snapshot.target.prepare=truncate"
            + " empties first; the slot keeps moving, and the target ends equal to the source")
    void existingRowsArriveUnderLoad(PostgresVersion version) throws Exception {
        PostgresNode source = servers.of(version);
        PostgresNode target = servers.targetOf(version);
        String name = "snap_pg" + version.major();
        int accounts = version.equals(PostgresVersion.fromProperty()) ? ACCOUNTS : ACCOUNTS / 10;
        seed(source, target, name, accounts);
        // Old rows the source does not have, on both sides of its keys, and a table only the target has that
        // references one of the snapshotted tables (which is therefore emptied by DELETE, not TRUNCATE).
        SqlSession.execute(
                target,
                "CREATE TABLE " + name + ".accounts (id bigint PRIMARY KEY, balance integer NOT NULL, note text)",
                "INSERT INTO " + name + ".accounts SELECT g, -1, 'old' FROM generate_series(-100, 100) g",
                "INSERT INTO " + name + ".accounts VALUES (" + 10L * accounts + ", -1, 'old, past the end')",
                "CREATE TABLE " + name + ".events (kind text, body text)",
                "INSERT INTO " + name + ".events SELECT 'old', 'old ' || g FROM generate_series(1, 50) g",
                "CREATE TABLE " + name + ".account_notes (id int PRIMARY KEY, account_id bigint REFERENCES " + name
                        + ".accounts)",
                "INSERT INTO " + name + ".account_notes VALUES (1, -5)");

        Map<String, String> snapshot = Map.of("snapshot.mode", "initial", "snapshot.threads", "2");
        Map<String, String> sink = Map.of("apply.workers", "2", "snapshot.target.prepare", "truncate");
        try (LogCapture log = LogCapture.start();
                SinkConnectorRun run = SinkConnectorRun.start(worker, source, target, name, snapshot, sink)) {
            long written;
            try (Application application = new Application(source, name, accounts)) {
                List<Lsn> confirmed = confirmedWhileSnapshotting(run, source);
                assertTrue(
                        confirmed.get(confirmed.size() - 1).compareTo(confirmed.get(0)) > 0,
                        "the slot's confirmed position moved during the snapshot: " + confirmed);
                written = application.written();
            }
            assertTrue(written > 0, "the application wrote while the snapshot ran");
            run.awaitCatchUp(CATCH_UP);
            assertEqual(run.compare());
            // four tables: the partitioned one is published as its root (publication.via.partition.root)
            assertTrue(TaskMetrics.value(run.sinkName(), "snapshot-tables-done") >= 4, "every table's last chunk");
            List<String> emptied = log.lines().stream()
                    .filter(l -> l.contains(" emptied " + name + "."))
                    .toList();
            // the old rows the application never touches (ids -100 to 0 and the one past the end), and whatever
            // else the stream left before the table's first chunk
            java.util.regex.Matcher deleted = java.util.regex.Pattern.compile(
                            "emptied " + name + "\\.accounts \\(DELETE of (\\d+) rows, as another table")
                    .matcher(String.join("\n", emptied));
            assertTrue(deleted.find(), emptied.toString());
            assertTrue(Long.parseLong(deleted.group(1)) >= 102, emptied.toString());
            assertEquals(
                    1,
                    emptied.stream()
                            .filter(l -> l.contains(name + ".accounts ("))
                            .count(),
                    emptied.toString());
            assertEquals(
                    1,
                    emptied.stream()
                            .filter(l -> l.contains(name + ".events (TRUNCATE)"))
                            .count(),
                    emptied.toString());
        }
        try (SqlSession session = SqlSession.open(target)) {
            assertEquals(
                    "1:-5",
                    session.queryValue(
                            "SELECT string_agg(id || ':' || account_id, ',') FROM " + name + ".account_notes"),
                    "the table only the target has keeps its rows: nothing cascades");
        }
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("dev.pglane.it.SourceServers#defaultVersion")
    @DisplayName("the source task and then the sink task restart in the middle of the snapshot, which goes on from the"
            + " next chunk; then rows deleted, changed and added on the target by hand are repaired by a snapshot a"
            + " signal asks for, while the application writes; then a table with rows joins the publication while it is"
            + " written to (snapshot.new.tables): the target ends equal to the source")
    void restartsInTheMiddleAndASignalRepairsDrift(PostgresVersion version) throws Exception {
        PostgresNode source = servers.of(version);
        PostgresNode target = servers.targetOf(version);
        String name = "snap_restart_pg" + version.major();
        int accounts = ACCOUNTS / 10;
        seed(source, target, name, accounts);
        String signals = "CREATE TABLE " + name + ".pglane_signal (id text PRIMARY KEY, type text NOT NULL, data text)";
        SqlSession.execute(source, signals);
        SqlSession.execute(target, signals);

        Map<String, String> snapshot = Map.of(
                "snapshot.mode",
                "initial",
                "snapshot.chunk.rows",
                "5000",
                "signal.table",
                name + ".pglane_signal",
                "signal.kafka.topic",
                name + "_signals",
                "signal.kafka.bootstrap.servers",
                worker.bootstrapServers(),
                "snapshot.new.tables",
                "true");
        try (SinkConnectorRun run =
                SinkConnectorRun.start(worker, source, target, name, snapshot, Map.of("apply.workers", "2"))) {
            try (Application application = new Application(source, name, accounts)) {
                Waits.until("the sink applies snapshot chunks", SNAPSHOT, () -> chunksApplied(run) >= 5);
                run.source().restartTask();
                double beforeSinkRestart = chunksApplied(run);
                Waits.until(
                        "chunks after the source restart", SNAPSHOT, () -> chunksApplied(run) > beforeSinkRestart + 5);
                run.restartSinkTask();
                Waits.until("the snapshot completes", SNAPSHOT, () -> snapshotComplete(run));
            }
            run.awaitCatchUp(CATCH_UP);
            assertEqual(run.compare());

            SqlSession.execute(
                    target,
                    "DELETE FROM " + name + ".events WHERE body LIKE '%7'",
                    "DELETE FROM " + name + ".accounts WHERE id % 1000 = 7",
                    "UPDATE " + name + ".accounts SET note = 'edited by hand' WHERE id % 1000 = 8",
                    "INSERT INTO " + name
                            + ".accounts SELECT -g, 0, 'only on the target' FROM generate_series(1, 50) g");
            try (Application application = new Application(source, name, accounts)) {
                // first only a key range: the drift inside it is repaired, the target-only rows outside it stay
                SqlSession.execute(
                        source,
                        "INSERT INTO " + name + ".pglane_signal VALUES ('repair-range', 'execute-snapshot',"
                                + " '{\"data-collections\": [\"" + name + ".accounts\"], \"key-ranges\":"
                                + " [{\"data-collection\": \"" + name + ".accounts\", \"from\": [\"1\"],"
                                + " \"to\": [\"50001\"]}]}')");
                Waits.until(
                        "the range's hand edits are repaired",
                        SNAPSHOT,
                        () -> count(target, name + ".accounts WHERE note = 'edited by hand' AND id < 50001") == 0);
                assertTrue(
                        count(target, name + ".accounts WHERE note = 'edited by hand' AND id >= 50001") > 0,
                        "the rows after the range are left as they are");
                assertEquals(50, count(target, name + ".accounts WHERE id < 0"), "and those before it");
                double before = chunksApplied(run);
                SqlSession.execute(
                        source,
                        "INSERT INTO " + name + ".pglane_signal VALUES ('repair-1', 'execute-snapshot',"
                                + " '{\"data-collections\": [\"" + name + ".accounts\"]}')");
                // the same through the signal topic, for the keyless table
                signalThroughKafka(
                        name,
                        "{\"type\": \"execute-snapshot\", \"data\": {\"data-collections\": [\"" + name
                                + ".events\"]}}");
                // 100,000 rows and more in chunks of 5,000, and the events' one: at least 21 chunks
                Waits.until("the repair's chunks", SNAPSHOT, () -> chunksApplied(run) >= before + 21);
            }
            // the signal table's rows are never replicated: the target's copy of it stays empty
            SqlSession.execute(source, "DELETE FROM " + name + ".pglane_signal");
            run.awaitCatchUp(CATCH_UP);
            assertEqual(run.compare());

            joinATableWithRows(run, source, name);
            run.awaitCatchUp(CATCH_UP);
            assertEqual(run.compare());
        }
    }

    /**
     * A table with rows is created while the connector runs and is written to: the table lists select it, so the
     * connector adds it to the publication it created, snapshot.new.tables sends its rows (30,000 in chunks of 5,000),
     * and its changes stream on.
     */
    private static void joinATableWithRows(SinkConnectorRun run, PostgresNode source, String name) throws Exception {
        String joined = name + ".joined";
        SqlSession.execute(
                source,
                "CREATE TABLE " + joined + " (id bigint PRIMARY KEY, v integer NOT NULL)",
                "INSERT INTO " + joined + " SELECT g, 0 FROM generate_series(1, 30000) g");
        double before = chunksApplied(run);
        try (Application application =
                new Application((writing, written) -> writeJoined(source, joined, writing, written))) {
            // the table lists select it: the connector adds it to its publication within seconds
            Waits.until("the joined table's chunks", SNAPSHOT, () -> chunksApplied(run) >= before + 6);
            assertTrue(application.written() > 0, "the joined table was written to meanwhile");
        }
    }

    /** Updates, deletes and inserts of the joined table, before and after it joins. */
    private static void writeJoined(PostgresNode source, String joined, AtomicBoolean writing, AtomicLong written) {
        long next = 30_001;
        try (SqlSession session = SqlSession.open(source)) {
            while (writing.get()) {
                long id = ThreadLocalRandom.current().nextLong(1, 30_001);
                session.exec("UPDATE " + joined + " SET v = v + 1 WHERE id = ?", id);
                session.exec("DELETE FROM " + joined + " WHERE id = ?", id + 7);
                session.exec("INSERT INTO " + joined + " VALUES (?, 1)", next++);
                session.commit();
                written.incrementAndGet();
                Thread.sleep(2);
            }
        } catch (SQLException | InterruptedException e) {
            throw new IllegalStateException("the joined table's writer failed", e);
        }
    }

    private static long count(PostgresNode node, String fromWhere) throws SQLException {
        try (SqlSession session = SqlSession.open(node)) {
            return ((Number) session.queryValue("SELECT count(*) FROM " + fromWhere)).longValue();
        }
    }

    /** A Debezium-shaped signal record for the connector of topic prefix {@code name}, on its signal topic. */
    private static void signalThroughKafka(String name, String value) throws Exception {
        Map<String, Object> config = Map.of("bootstrap.servers", worker.bootstrapServers(), "acks", "all");
        try (KafkaProducer<String, String> producer =
                new KafkaProducer<>(config, new StringSerializer(), new StringSerializer())) {
            producer.send(new ProducerRecord<>(name + "_signals", name, value)).get(30, TimeUnit.SECONDS);
        }
    }

    /** Writes until told to stop, counting its transactions. */
    @FunctionalInterface
    private interface WriteLoop {
        void run(AtomicBoolean writing, AtomicLong written);
    }

    /** The application's writes on a thread of their own, from construction until closed. */
    private static final class Application implements AutoCloseable {
        private final AtomicBoolean writing = new AtomicBoolean(true);
        private final AtomicLong written = new AtomicLong();
        private final Thread thread;

        Application(PostgresNode source, String name, int accounts) {
            this((writing, written) -> write(source, name, accounts, writing, written));
        }

        Application(WriteLoop loop) {
            thread = new Thread(() -> loop.run(writing, written), "application");
            thread.start();
        }

        long written() {
            return written.get();
        }

        @Override
        public void close() throws InterruptedException {
            writing.set(false);
            thread.join();
        }
    }

    /**
     * On the source, the tables with their rows; on the target, the schema, and the partitioned table (which the
     * publication sends as its root, whichever partition holds a row).
     */
    private static void seed(PostgresNode source, PostgresNode target, String name, int accounts) throws SQLException {
        List<TypeCase> cases = TypeCases.all();
        SinkReplicationIT.createTypes(source);
        SinkReplicationIT.createTypes(target);
        String partitioned = "CREATE TABLE " + name + ".measures (id integer, at date, v integer, PRIMARY KEY (id, at))"
                + " PARTITION BY RANGE (at)";
        String partitions = "CREATE TABLE " + name + ".measures_2025 PARTITION OF " + name
                + ".measures FOR VALUES FROM ('2025-01-01') TO ('2026-01-01'); CREATE TABLE " + name
                + ".measures_2026 PARTITION OF " + name + ".measures FOR VALUES FROM ('2026-01-01') TO ('2027-01-01')";
        List<String> statements = new ArrayList<>(List.of(
                "CREATE SCHEMA " + name,
                "CREATE TABLE " + name + ".accounts (id bigint PRIMARY KEY, balance integer NOT NULL, note text)",
                "INSERT INTO " + name + ".accounts SELECT g, 0, 'account ' || g FROM generate_series(1, " + accounts
                        + ") g",
                "CREATE TABLE " + name + ".events (kind text, body text)",
                "ALTER TABLE " + name + ".events REPLICA IDENTITY FULL",
                "INSERT INTO " + name + ".events SELECT 'seed', 'event ' || g FROM generate_series(1, 20000) g",
                TypeCases.createTable(name + ".every_type", cases),
                partitioned,
                partitions,
                "INSERT INTO " + name + ".measures SELECT g, date '2025-06-01' + (g % 400), g FROM"
                        + " generate_series(1, 20000) g"));
        for (int row = 0; row <= 3; row++) {
            statements.add(TypeCases.insert(name + ".every_type", cases, row));
        }
        statements.add("ANALYZE");
        SqlSession.execute(source, statements.toArray(String[]::new));
        SqlSession.execute(target, "CREATE SCHEMA " + name, partitioned, partitions);
    }

    /** Updates, deletes and inserts over the tables until told to stop, as an application would. */
    private static void write(
            PostgresNode source, String name, int accounts, AtomicBoolean writing, AtomicLong written) {
        long next = accounts + 1;
        try (SqlSession session = SqlSession.open(source)) {
            while (writing.get()) {
                long id = ThreadLocalRandom.current().nextLong(1, accounts + 1);
                session.exec("UPDATE " + name + ".accounts SET balance = balance + 1 WHERE id = ?", id);
                session.exec("DELETE FROM " + name + ".accounts WHERE id = ?", id + 1);
                session.exec("INSERT INTO " + name + ".accounts VALUES (?, 1, 'new')", next++);
                session.exec("INSERT INTO " + name + ".events VALUES ('new', 'event ' || ?::text)", id);
                session.exec(
                        "UPDATE " + name + ".events SET body = body || '+' WHERE ctid = (SELECT ctid FROM " + name
                                + ".events WHERE kind = 'seed' AND body = 'event ' || ?::text LIMIT 1)",
                        id % 20000);
                session.exec("UPDATE " + name + ".measures SET v = v + 1 WHERE id = ?", id % 20000);
                // half a year on or back: a row that crosses the new year moves to the other partition
                session.exec(
                        "UPDATE " + name + ".measures SET at = CASE WHEN at < date '2026-01-01' THEN at + 180"
                                + " ELSE at - 180 END WHERE id = ?",
                        (id + 7) % 20000);
                session.exec("UPDATE " + name + ".every_type SET c_text = 'changed ' || ?::text WHERE id = 1", id);
                session.commit();
                written.incrementAndGet();
                Thread.sleep(2);
            }
        } catch (SQLException | InterruptedException e) {
            throw new IllegalStateException("the application failed", e);
        }
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("dev.pglane.it.SourceServers#defaultVersion")
    @DisplayName("paced by the sink's consumer group (snapshot.pace.group), the snapshot starts no chunk while the"
            + " sink is paused and its lag is above the limit, and goes on once the sink resumes: the target ends"
            + " equal to the source")
    void thePaceHoldsTheSnapshotWhileTheSinkIsBehind(PostgresVersion version) throws Exception {
        PostgresNode source = servers.of(version);
        PostgresNode target = servers.targetOf(version);
        String name = "snap_paced";
        int rows = 300_000;
        SqlSession.execute(
                source,
                "CREATE SCHEMA " + name,
                "CREATE TABLE " + name + ".accounts (id bigint PRIMARY KEY, balance integer NOT NULL, note text)",
                "INSERT INTO " + name + ".accounts SELECT g, 0, 'account ' || g FROM generate_series(1, " + rows
                        + ") g",
                "ANALYZE " + name + ".accounts");
        SqlSession.execute(target, "CREATE SCHEMA " + name);
        String group = "connect-" + name + "_sink";
        Map<String, String> paced = Map.of(
                "snapshot.mode", "initial",
                "snapshot.chunk.rows", "2000",
                "snapshot.pace.group", group,
                "snapshot.pace.bootstrap.servers", worker.bootstrapServers(),
                "snapshot.pace.max.lag.ms", "500");
        try (LogCapture log = LogCapture.start();
                SinkConnectorRun run = SinkConnectorRun.start(worker, source, target, name, paced, Map.of())) {
            Waits.until("the sink applies chunks", Duration.ofSeconds(60), () -> chunksApplied(run) >= 3);
            double heldBefore = TaskMetrics.value(name, "snapshot-held-ms");
            worker.rest().pause(run.sinkName());
            // the sink's offsets stop where it was paused; the chunks read by then still go out, then the pace holds
            Waits.until(
                    "the pace holds the snapshot for 2 s after the pause",
                    Duration.ofSeconds(30),
                    () -> TaskMetrics.value(name, "snapshot-held-ms") >= heldBefore + 2000);
            double sentWhilePaused = TaskMetrics.value(name, "snapshot-rows-sent");
            Thread.sleep(5000); // the window in which nothing may start
            assertEquals(
                    sentWhilePaused,
                    TaskMetrics.value(name, "snapshot-rows-sent"),
                    "no chunk started while the paused sink's group lagged");
            assertTrue(sentWhilePaused < rows, "the snapshot was held before its end: " + sentWhilePaused);
            assertTrue(TaskMetrics.value(name, "snapshot-held-ms") >= 5000, "the wait is counted");
            worker.rest().resume(run.sinkName());
            Waits.until("the snapshot completes once the sink resumed", SNAPSHOT, () -> snapshotComplete(run));
            run.awaitCatchUp(CATCH_UP);
            assertEqual(run.compare());
            assertTrue(
                    log.lines().stream()
                            .anyMatch(l -> l.contains("holds new chunks back: consumer group " + group + " has")),
                    "an INFO line says why the snapshot waits");
        }
    }

    /** The slot's confirmed position, sampled every two seconds until the sink reports the snapshot complete. */
    private static List<Lsn> confirmedWhileSnapshotting(SinkConnectorRun run, PostgresNode source) throws Exception {
        List<Lsn> confirmed = new ArrayList<>();
        long deadline = System.nanoTime() + SNAPSHOT.toNanos();
        while (!snapshotComplete(run)) {
            assertTrue(System.nanoTime() < deadline, "the snapshot did not complete in " + SNAPSHOT);
            confirmed.add(SourceIdleSlotIT.confirmedFlush(source, run.source().slot()));
            Thread.sleep(2000);
        }
        assertTrue(confirmed.size() >= 2, "the snapshot took at least two samples: " + confirmed);
        return confirmed;
    }

    private static boolean snapshotComplete(SinkConnectorRun run) {
        return metric(run, "snapshot-complete") == 1.0;
    }

    private static double chunksApplied(SinkConnectorRun run) {
        return metric(run, "snapshot-chunks-applied-total");
    }

    /** A sink metric, 0 while the task has not registered it (it is starting). */
    static double metric(SinkConnectorRun run, String metric) {
        try {
            return TaskMetrics.value(run.sinkName(), metric);
        } catch (IllegalStateException e) {
            return 0;
        }
    }
}
