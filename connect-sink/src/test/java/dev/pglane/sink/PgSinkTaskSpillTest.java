package dev.pglane.sink;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.pglane.sink.apply.TargetServer;
import dev.pglane.sink.assemble.OtherProcessRun;
import dev.pglane.wire.Lsn;
import java.io.IOException;
import java.io.RandomAccessFile;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.SQLException;
import java.time.Duration;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.metrics.Metrics;
import org.apache.kafka.common.metrics.internals.PluginMetricsImpl;
import org.apache.kafka.connect.errors.ConnectException;
import org.apache.kafka.connect.sink.SinkRecord;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/**
 * The task's spill files as Connect drives it against a real PostgreSQL target: the cap on their bytes,
 * the sweep of a killed run's files at start, and a damaged file.
 */
@Timeout(value = 300, unit = TimeUnit.SECONDS)
class PgSinkTaskSpillTest {
    private static final TopicPartition MARKERS = ShopRecords.MARKERS;
    private static final TopicPartition LEDGER_0 = new TopicPartition(ShopRecords.topic("ledger"), 0);
    private static final TopicPartition LEDGER_1 = new TopicPartition(ShopRecords.topic("ledger"), 1);
    private static final TopicPartition NOTES_0 = new TopicPartition(ShopRecords.topic("notes"), 0);
    private static final List<TopicPartition> ASSIGNMENT = List.of(MARKERS, LEDGER_0, LEDGER_1, NOTES_0);
    private static final long MIB = 1L << 20;
    /** Rows per large transaction: about 3 MB of spill files each, three times the cap of the first test. */
    private static final int ROWS = 5_000;

    private static final Duration DEADLINE = Duration.ofSeconds(120);

    @RegisterExtension
    static final TargetServer target = new TargetServer();

    @TempDir
    Path spillDirectory;

    private final ShopRecords shop = new ShopRecords();

    @BeforeEach
    void cleanTarget() throws SQLException {
        target.execute("DROP TABLE IF EXISTS public.ledger, public.notes, public.pglane_progress");
        target.execute("CREATE TABLE public.ledger (id int PRIMARY KEY, note text)");
        target.execute("CREATE TABLE public.notes (id int PRIMARY KEY, note text)");
    }

    @Test
    void overTheCapOnlyWhatTheNextTransactionAwaitsFlowsAndOneLargerThanTheCapStillApplies() throws Exception {
        // commit order: xid 901 on the ledger topic, then xid 902 on the notes topic; each spills past the cap
        Map<TopicPartition, ArrayDeque<SinkRecord>> topics = new LinkedHashMap<>();
        topics.put(
                MARKERS,
                new ArrayDeque<>(List.of(
                        shop.marker(ShopRecords.start()),
                        shop.marker(ShopRecords.end(901, 0x1000, Map.of("ledger", (long) ROWS))),
                        shop.marker(ShopRecords.end(902, 0x2000, Map.of("notes", (long) ROWS))))));
        topics.put(LEDGER_0, new ArrayDeque<>());
        topics.put(LEDGER_1, new ArrayDeque<>());
        topics.put(NOTES_0, new ArrayDeque<>());
        for (int i = 1; i <= ROWS; i++) {
            TopicPartition ledger = i % 2 == 0 ? LEDGER_0 : LEDGER_1;
            topics.get(ledger).add(shop.insert(ledger, 901, i, i, note(i)));
            topics.get(NOTES_0).add(shop.insert(NOTES_0, 902, i, i, note(-i)));
        }
        Metrics registry = new Metrics();
        FakeSinkTaskContext context = new FakeSinkTaskContext(ASSIGNMENT);
        context.metrics = new PluginMetricsImpl(registry, Map.of("connector", "capped", "task", "0"));
        PgSinkTask task = startTask(
                context,
                "capped",
                Map.of(
                        BufferingSettings.BUFFER_MAX_BYTES,
                        Long.toString(MIB),
                        BufferingSettings.SPILL_MAX_BYTES,
                        Long.toString(MIB)));
        ConnectLoop connect = new ConnectLoop(task, context);
        List<Set<TopicPartition>> pausesWhileTheLedgerLags = new ArrayList<>();
        long mostOf901 = 0;
        try {
            long deadline = System.nanoTime() + DEADLINE.toNanos();
            while (!applied(Lsn.valueOf(0x2000))) {
                assertTrue(System.nanoTime() < deadline, "not applied in time; paused " + context.paused);
                // Connect's consumer: up to 200 records of every partition that is not paused
                List<SinkRecord> batch = new ArrayList<>();
                topics.forEach((partition, records) -> {
                    for (int n = 0; n < 200 && !records.isEmpty() && !context.paused.contains(partition); n++) {
                        batch.add(records.poll());
                    }
                });
                connect.deliver(batch);
                if (!topics.get(LEDGER_0).isEmpty() || !topics.get(LEDGER_1).isEmpty()) {
                    pausesWhileTheLedgerLags.add(Set.copyOf(context.paused));
                }
                mostOf901 = Math.max(mostOf901, spillBytes("xid901-"));
            }
            assertTrue(
                    pausesWhileTheLedgerLags.contains(Set.of(MARKERS, NOTES_0)),
                    "the cap paused what xid 901 does not wait for: " + pausesWhileTheLedgerLags);
            assertTrue(
                    pausesWhileTheLedgerLags.stream().noneMatch(p -> p.contains(LEDGER_0) || p.contains(LEDGER_1)),
                    "what xid 901 waits for never paused: " + pausesWhileTheLedgerLags);
            assertTrue(mostOf901 > MIB, "xid 901 alone exceeded the cap: " + mostOf901);
            assertTrue(metric(registry, "spill-cap-pauses-total") >= 1);

            awaitResumed(connect, context);
            assertEquals(0, metric(registry, "spilled-bytes"));
            assertEquals(List.of(), spillFiles(), "the applied transactions' files are deleted");
        } finally {
            task.stop();
            registry.close();
        }
        assertRows(expectedRows(1), "public.ledger");
        assertRows(expectedRows(-1), "public.notes");
    }

    @Test
    void aStartDeletesWhatAKilledRunOfItsConnectorLeftButNotTheLiveFilesOfAnother() throws Exception {
        Path killedRun;
        try (OtherProcessRun killed = OtherProcessRun.start(spillDirectory, "orders-sink")) {
            killedRun = killed.directory();
        }
        FakeSinkTaskContext auditContext = new FakeSinkTaskContext(ASSIGNMENT);
        PgSinkTask audit =
                startTask(auditContext, "audit-sink", Map.of(BufferingSettings.BUFFER_MAX_BYTES, Long.toString(MIB)));
        PgSinkTask orders = null;
        try {
            ConnectLoop connect = new ConnectLoop(audit, auditContext);
            connect.deliver(List.of(shop.marker(ShopRecords.start())));
            connect.deliver(ledgerInserts(903));
            List<Path> auditFiles = spillFiles("audit-sink");
            assertFalse(auditFiles.isEmpty(), "audit-sink spilled xid 903, whose END has not come");
            assertEquals(
                    OtherProcessRun.FILE_SIZES.size(), spillFiles("orders-sink").size());

            orders = startTask(new FakeSinkTaskContext(ASSIGNMENT), "orders-sink", Map.of());

            assertFalse(Files.exists(killedRun), "the killed run of orders-sink is gone");
            assertEquals(List.of(), spillFiles("orders-sink"));
            assertEquals(auditFiles, spillFiles("audit-sink"), "audit-sink's files are untouched");
            connect.deliver(List.of(shop.marker(ShopRecords.end(903, 0x3000, Map.of("ledger", (long) ROWS)))));
            awaitApplied(connect, Lsn.valueOf(0x3000));
            assertRows(expectedRows(1), "public.ledger");
        } finally {
            audit.stop();
            if (orders != null) {
                orders.stop();
            }
        }
        try (Stream<Path> runs = Files.walk(spillDirectory)) {
            assertEquals(
                    List.of(),
                    runs.filter(path -> path.getFileName().toString().startsWith("run-"))
                            .toList(),
                    "stopped tasks delete their runs");
        }
    }

    @Test
    void aDamagedSpillFileFailsTheTaskNamingTheFileAndTheTransaction() throws Exception {
        FakeSinkTaskContext context = new FakeSinkTaskContext(ASSIGNMENT);
        PgSinkTask task = startTask(context, "damaged", Map.of(BufferingSettings.BUFFER_MAX_BYTES, Long.toString(MIB)));
        ConnectLoop connect = new ConnectLoop(task, context);
        try {
            connect.deliver(List.of(shop.marker(ShopRecords.start())));
            connect.deliver(ledgerInserts(904));
            Path damaged = spillFiles().get(0);
            try (RandomAccessFile file = new RandomAccessFile(damaged.toFile(), "rw")) {
                // what the writer flushed so far: a byte in the middle of it
                long at = file.length() / 2;
                file.seek(at);
                int b = file.read();
                file.seek(at);
                file.write(b ^ 0x04);
            }

            connect.deliver(List.of(shop.marker(ShopRecords.end(904, 0x4000, Map.of("ledger", (long) ROWS)))));
            ConnectException failure = awaitFailure(connect);

            assertTrue(failure.getMessage().contains("Applying xid 904"), failure.getMessage());
            assertTrue(
                    failure.getMessage().contains("Spill file " + damaged + " of xid 904 generation 7 is damaged"),
                    failure.getMessage());
            assertEquals(List.of(), target.rows("SELECT id::text FROM public.ledger"), "nothing of it applied");
        } finally {
            task.stop();
        }
    }

    private List<SinkRecord> ledgerInserts(long xid) {
        List<SinkRecord> records = new ArrayList<>();
        for (int i = 1; i <= ROWS; i++) {
            TopicPartition ledger = i % 2 == 0 ? LEDGER_0 : LEDGER_1;
            records.add(shop.insert(ledger, xid, i, i, note(i)));
        }
        return records;
    }

    /** About 600 bytes, different for every row. */
    private static String note(int id) {
        return id + ":" + "x".repeat(600);
    }

    /** The table holds exactly {@code expected}, compared row by row so that a failure names one row. */
    private static void assertRows(List<String> expected, String table) throws SQLException {
        List<String> rows = target.rows("SELECT id || ':' || note FROM " + table + " ORDER BY id");
        for (int i = 0; i < Math.min(expected.size(), rows.size()); i++) {
            assertEquals(expected.get(i), rows.get(i), table + ", row " + (i + 1));
        }
        assertEquals(expected.size(), rows.size(), table + " rows");
    }

    private static List<String> expectedRows(int sign) {
        List<String> rows = new ArrayList<>();
        for (int i = 1; i <= ROWS; i++) {
            rows.add(i + ":" + note(sign * i));
        }
        return rows;
    }

    private PgSinkTask startTask(FakeSinkTaskContext context, String name, Map<String, String> settings) {
        Map<String, String> withSpills = new HashMap<>(settings);
        withSpills.put(BufferingSettings.SPILL_DIRECTORY, spillDirectory.toString());
        return SinkTaskHarness.startTask(target, context, name, 2, withSpills);
    }

    private void awaitApplied(ConnectLoop connect, Lsn lsn) throws SQLException {
        long deadline = System.nanoTime() + DEADLINE.toNanos();
        while (!applied(lsn)) {
            assertTrue(System.nanoTime() < deadline, "progress did not reach " + lsn);
            connect.deliver(List.of());
        }
    }

    /** Delivers nothing until the task resumed every partition (the workers freed the spill files). */
    private static void awaitResumed(ConnectLoop connect, FakeSinkTaskContext context) {
        long deadline = System.nanoTime() + DEADLINE.toNanos();
        while (!context.paused.isEmpty()) {
            assertTrue(System.nanoTime() < deadline, "still paused: " + context.paused);
            connect.deliver(List.of());
        }
    }

    private static ConnectException awaitFailure(ConnectLoop connect) {
        long deadline = System.nanoTime() + DEADLINE.toNanos();
        while (System.nanoTime() < deadline) {
            try {
                connect.deliver(List.of());
            } catch (ConnectException e) {
                return e;
            }
        }
        throw new AssertionError("the task did not fail");
    }

    /** Whether some sink's progress reached {@code lsn}; the progress table appears with the first pipeline. */
    private static boolean applied(Lsn lsn) throws SQLException {
        if (target.rows("SELECT 1 WHERE to_regclass('public.pglane_progress') IS NOT NULL")
                .isEmpty()) {
            return false;
        }
        return target.rows("SELECT end_lsn::text FROM public.pglane_progress").stream()
                .anyMatch(applied -> Lsn.parse(applied).compareTo(lsn) >= 0);
    }

    private List<Path> spillFiles() throws IOException {
        return spillFiles("");
    }

    /** The spill files under {@code <spill.directory>/<connector>}, or all of them for "". */
    private List<Path> spillFiles(String connector) throws IOException {
        try (Stream<Path> files = Files.walk(spillDirectory.resolve(connector))) {
            return files.filter(path -> path.toString().endsWith(".spill"))
                    .sorted()
                    .toList();
        }
    }

    private long spillBytes(String prefix) throws IOException {
        long bytes = 0;
        for (Path file : spillFiles()) {
            if (file.getFileName().toString().startsWith(prefix) && Files.exists(file)) {
                bytes += Files.size(file);
            }
        }
        return bytes;
    }

    private static long metric(Metrics registry, String name) {
        return registry.metrics().entrySet().stream()
                .filter(entry -> entry.getKey().name().equals(name))
                .map(entry -> ((Number) entry.getValue().metricValue()).longValue())
                .findFirst()
                .orElseThrow(() -> new AssertionError("no metric " + name));
    }
}
