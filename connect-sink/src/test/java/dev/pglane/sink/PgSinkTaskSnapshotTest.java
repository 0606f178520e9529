package dev.pglane.sink;

import static dev.pglane.sink.TaskRecords.LEDGER_0;
import static dev.pglane.sink.TaskRecords.LEDGER_1;
import static dev.pglane.sink.TaskRecords.delete;
import static dev.pglane.sink.TaskRecords.end;
import static dev.pglane.sink.TaskRecords.insert;
import static dev.pglane.sink.TaskRecords.pendingSnapshot;
import static dev.pglane.sink.TaskRecords.read;
import static dev.pglane.sink.TaskRecords.start;
import static dev.pglane.sink.TaskRecords.update;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.pglane.connect.logging.LogCapture;
import dev.pglane.sink.apply.TargetServer;
import dev.pglane.wire.marker.SnapshotChunk;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.function.Predicate;
import org.apache.kafka.common.metrics.Metrics;
import org.apache.kafka.common.metrics.internals.PluginMetricsImpl;
import org.apache.kafka.connect.sink.SinkRecord;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * A snapshot as the task meets it: chunk transactions of {@code op = r} rows over a target that already holds some of
 * them, stream changes flagged {@code pending_snapshot} in between, and the chunk that finishes the table and the
 * snapshot, under the default {@code conflict.policy=error} on two workers.
 */
@Timeout(value = 180, unit = TimeUnit.SECONDS)
class PgSinkTaskSnapshotTest {
    private static final String SNAPSHOT = "snap-1";

    @RegisterExtension
    static final TargetServer target = new TargetServer();

    private final TaskRecords feed = new TaskRecords();

    @BeforeEach
    void cleanTarget() throws SQLException {
        target.execute(
                "DROP TABLE IF EXISTS public.ledger, public.pglane_progress",
                "CREATE TABLE public.ledger (id int PRIMARY KEY, note text)",
                "INSERT INTO public.ledger VALUES (1, 'stale one'), (2, 'stale two')");
    }

    @Test
    void chunksOverwriteUnderErrorPendingChangesMissQuietlyAndTheEndOfTheSnapshotIsToldAndMeasured() throws Exception {
        Metrics registry = new Metrics();
        FakeSinkTaskContext context = SinkTaskHarness.context();
        context.metrics = new PluginMetricsImpl(registry, Map.of("connector", "snapshot", "task", "0"));
        try (LogCapture log = LogCapture.start()) {
            PgSinkTask task = SinkTaskHarness.startTask(target, context, 2, Map.of());
            try {
                ConnectLoop connect = new ConnectLoop(task, context);
                List<SinkRecord> firstChunk = new ArrayList<>(List.of(feed.marker(start())));
                for (int id = 1; id <= 100; id++) {
                    firstChunk.add(feed.change(id % 2 == 0 ? LEDGER_0 : LEDGER_1, read(700, id, id, "snapshot " + id)));
                }
                firstChunk.add(feed.marker(end(700, "0/7000", 100, chunk(0, false))));
                connect.deliver(firstChunk);
                awaitMetric(connect, registry, "snapshot-chunks-applied-total", 1);
                assertEquals(0, metric(registry, "snapshot-tables-done"));
                assertEquals(0, metric(registry, "snapshot-complete"));

                // the stream changes rows of the table before the chunk that holds them is applied
                List<SinkRecord> rest = new ArrayList<>(List.of(
                        feed.change(LEDGER_0, pendingSnapshot(update(701, 1, 150, "changed 150"))),
                        feed.change(LEDGER_1, pendingSnapshot(delete(701, 2, 160))),
                        feed.change(LEDGER_0, pendingSnapshot(insert(701, 3, 2, "inserted two"))),
                        feed.marker(end(701, "0/7100", 3))));
                // the last chunk, read after xid 701 committed: row 150 changed, row 160 gone
                long order = 0;
                for (int id = 101; id <= 200; id++) {
                    if (id != 160) {
                        String note = id == 150 ? "changed 150" : "snapshot " + id;
                        rest.add(feed.change(id % 2 == 0 ? LEDGER_0 : LEDGER_1, read(702, ++order, id, note)));
                    }
                }
                rest.add(feed.marker(end(702, "0/7200", order, chunk(1, true))));
                connect.deliver(rest);
                awaitLine(connect, log, l -> l.startsWith("INFO ") && l.contains("Snapshot " + SNAPSHOT + " complete"));
            } finally {
                task.stop();
            }
            List<String> lines = log.lines();
            assertTrue(
                    lines.stream()
                            .anyMatch(l -> l.startsWith("INFO ")
                                    && l.contains("Snapshot " + SNAPSHOT + ": table public.ledger has all its existing"
                                            + " rows on the target; its last chunk, 1, committed with")
                                    && l.contains("this task run applied 2 of its chunks")),
                    lines::toString);
            assertTrue(
                    lines.stream()
                            .anyMatch(l -> l.startsWith("INFO ")
                                    && l.contains("Snapshot " + SNAPSHOT + " complete on the target")
                                    && l.contains("applied 2 chunks and finished 1 tables")),
                    lines::toString);
            assertEquals(
                    List.of(),
                    log.warnings().stream().filter(l -> l.contains("onflict")).toList());
        } finally {
            registry.close();
        }
        assertEquals(2, metric(registry, "snapshot-chunks-applied-total"));
        assertEquals(1, metric(registry, "snapshot-tables-done"));
        assertEquals(1, metric(registry, "snapshot-complete"));
        for (String kind : List.of("insert_exists", "update_missing", "delete_missing")) {
            assertEquals(1, metric(registry, "snapshot-pending-misses-total", kind), kind);
            assertEquals(0, metric(registry, "conflicts-total", kind), kind);
        }
        assertEquals(
                List.of("199|1:snapshot 1|2:inserted two|150:changed 150"),
                target.rows("SELECT count(*), min(id || ':' || note) FILTER (WHERE id = 1),"
                        + " min(id || ':' || note) FILTER (WHERE id = 2), min(id || ':' || note) FILTER (WHERE id = 150)"
                        + " FROM public.ledger WHERE id <> 160"));
        assertEquals(List.of(), target.rows("SELECT id FROM public.ledger WHERE id = 160"));
    }

    @Test
    void aChunkDeletesTheTargetsRowsInItsKeyRangeThatItDoesNotHoldAndLeavesTheRestAlone() throws Exception {
        target.execute(
                "INSERT INTO public.ledger SELECT g, 'stale ' || g FROM generate_series(3, 10) g",
                "INSERT INTO public.ledger VALUES (15, 'edited by hand'), (30, 'deleted at the source')");
        FakeSinkTaskContext context = SinkTaskHarness.context();
        PgSinkTask task = SinkTaskHarness.startTask(target, context, 2, Map.of());
        try (LogCapture log = LogCapture.start()) {
            ConnectLoop connect = new ConnectLoop(task, context);
            List<SinkRecord> records = new ArrayList<>(List.of(feed.marker(start())));
            for (int id = 1; id <= 10; id++) {
                records.add(feed.change(id % 2 == 0 ? LEDGER_0 : LEDGER_1, read(800, id, id, "source " + id)));
            }
            records.add(feed.marker(end(800, "0/8000", 10, ranged(0, null, "20", false))));
            records.add(feed.change(LEDGER_1, read(801, 1, 25, "source 25")));
            records.add(feed.marker(end(801, "0/8100", 1, ranged(1, "20", null, true))));
            connect.deliver(records);
            awaitLine(connect, log, l -> l.startsWith("INFO ") && l.contains("Snapshot " + SNAPSHOT + " complete"));
            assertTrue(
                    log.lines().stream().anyMatch(l -> l.contains("Snapshot chunk 0 of public.ledger deleted 1 rows")),
                    log.lines()::toString);
        } finally {
            task.stop();
        }
        assertEquals(
                List.of(
                        "1:source 1",
                        "2:source 2",
                        "3:source 3",
                        "4:source 4",
                        "5:source 5",
                        "6:source 6",
                        "7:source 7",
                        "8:source 8",
                        "9:source 9",
                        "10:source 10",
                        "25:source 25"),
                target.rows("SELECT id || ':' || note FROM public.ledger ORDER BY id"));
    }

    private static SnapshotChunk ranged(long chunk, String lower, String upper, boolean last) {
        return new SnapshotChunk(
                SNAPSHOT,
                "public.ledger",
                chunk,
                last,
                last,
                new SnapshotChunk.KeyRange(
                        List.of("id"), lower == null ? null : List.of(lower), upper == null ? null : List.of(upper)));
    }

    private static SnapshotChunk chunk(long chunk, boolean last) {
        return new SnapshotChunk(SNAPSHOT, "public.ledger", chunk, last, last);
    }

    /** Drives the task until a captured log line matches. */
    private static void awaitLine(ConnectLoop connect, LogCapture log, Predicate<String> wanted) {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
        while (log.lines().stream().noneMatch(wanted)) {
            assertTrue(System.nanoTime() < deadline, () -> "no such line; logged: " + log.lines());
            connect.deliver(List.of());
            Thread.onSpinWait();
        }
    }

    /** Drives the task until a metric has a value: a worker sets it just after its commit. */
    private static void awaitMetric(ConnectLoop connect, Metrics registry, String name, long value) {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
        while (metric(registry, name) != value) {
            assertTrue(System.nanoTime() < deadline, () -> name + " is " + metric(registry, name));
            connect.deliver(List.of());
            Thread.onSpinWait();
        }
    }

    private static long metric(Metrics registry, String name) {
        return metric(registry, name, null);
    }

    /** The value of metric {@code name}, of the one tagged with {@code kind} if not null. */
    private static long metric(Metrics registry, String name, String kind) {
        return registry.metrics().entrySet().stream()
                .filter(entry -> entry.getKey().name().equals(name)
                        && (kind == null || kind.equals(entry.getKey().tags().get("kind"))))
                .map(entry -> ((Number) entry.getValue().metricValue()).longValue())
                .findFirst()
                .orElseThrow(() -> new AssertionError("no metric " + name + " " + kind));
    }
}
