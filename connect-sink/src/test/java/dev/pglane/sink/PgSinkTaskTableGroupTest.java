package dev.pglane.sink;

import static dev.pglane.sink.TaskRecords.LEDGER_0;
import static dev.pglane.sink.TaskRecords.LEDGER_TOPIC;
import static dev.pglane.sink.TaskRecords.MARKERS;
import static dev.pglane.sink.TaskRecords.insert;
import static dev.pglane.sink.TaskRecords.start;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.pglane.connect.logging.LogCapture;
import dev.pglane.sink.admit.ConsumedTopics;
import dev.pglane.sink.apply.TargetServer;
import dev.pglane.sink.progress.ProgressTable;
import dev.pglane.sink.progress.SourceIdentityCheck;
import dev.pglane.sink.target.TableName;
import dev.pglane.wire.Lsn;
import dev.pglane.wire.marker.DataCollectionCount;
import dev.pglane.wire.marker.Marker;
import dev.pglane.wire.marker.SnapshotChunk;
import java.sql.Connection;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * A sink that applies a table group ({@code apply.scope=consumed_topics}): of each source transaction it applies the
 * share on the topics it consumes and passes over the rest, without waiting for records it will never read.
 */
@Timeout(value = 120, unit = TimeUnit.SECONDS)
class PgSinkTaskTableGroupTest {
    private static final String OTHER_TOPIC = "shop.public.other";

    @RegisterExtension
    static final TargetServer target = new TargetServer();

    private final TaskRecords feed = new TaskRecords();

    @BeforeEach
    void cleanTarget() throws SQLException {
        target.execute(
                "DROP TABLE IF EXISTS public.ledger, public.other, public.pglane_progress",
                "CREATE TABLE public.ledger (id int PRIMARY KEY, note text)",
                "INSERT INTO public.ledger VALUES (1, 'one')",
                "CREATE TABLE public.other (id int PRIMARY KEY, note text)",
                "INSERT INTO public.other VALUES (1, 'kept'), (2, 'kept')");
    }

    /** The sink that applies the other group, as its progress row records it. */
    private static void otherGroupRecorded() throws SQLException {
        ProgressTable others = new ProgressTable(
                new TableName("public", "pglane_progress"),
                "others",
                "shop",
                new SourceIdentityCheck("shop"),
                ConsumedTopics.listed(List.of(OTHER_TOPIC)));
        try (Connection c = target.connect()) {
            others.prepare(c);
            others.claim(c);
        }
    }

    @Test
    void aGroupAppliesItsShareAndPassesOverTheRestIncludingAnotherTablesSnapshotChunks() throws Exception {
        FakeSinkTaskContext context = new FakeSinkTaskContext(List.of(MARKERS, LEDGER_0));
        Map<String, String> settings = Map.of(
                TableGroupSettings.APPLY_SCOPE,
                "consumed_topics",
                "topics.regex",
                "shop\\.(transactions|public\\.ledger)",
                PgSinkConfig.SNAPSHOT_TARGET_PREPARE,
                "truncate");
        otherGroupRecorded();
        List<String> lines;
        try (LogCapture log = LogCapture.start()) {
            PgSinkTask task = SinkTaskHarness.startTask(target, context, 2, settings);
            try {
                ConnectLoop connect = new ConnectLoop(task, context);
                connect.deliver(List.of(
                        feed.marker(start()),
                        feed.change(LEDGER_0, insert(951, 1, 2, "two")),
                        // a record on each table, the other one on a topic this sink does not consume
                        feed.marker(end(951, "0/9600", 2, List.of(ledger(1), other(1)), null)),
                        feed.marker(start()),
                        // nothing of it is this group's
                        feed.marker(end(952, "0/9700", 1, List.of(other(1)), null)),
                        feed.marker(start()),
                        // the first chunk of a snapshot of the other table, which asks to empty it first
                        feed.marker(end(953, "0/9800", 2, List.of(other(2)), otherChunk()))));
                SinkTaskHarness.awaitProgress(target, connect, Lsn.parse("0/9800"));
            } finally {
                task.stop();
            }
            lines = log.lines();
        }
        assertEquals(List.of("1:one", "2:two"), SinkTaskHarness.ledgerRows(target));
        assertEquals(
                List.of("1:kept", "2:kept"),
                target.rows("SELECT id || ':' || note FROM public.other ORDER BY id"),
                "the other group's table is not touched, not even by its snapshot's chunk");
        List<String> passedOver = lines.stream()
                .filter(l -> l.contains("applies a table group") && l.contains("on topic " + OTHER_TOPIC))
                .toList();
        assertTrue(
                passedOver.get(0).contains("leaves them to [others (topics " + OTHER_TOPIC + ")]"),
                passedOver::toString);
        assertEquals(1, passedOver.size(), () -> "told once: " + lines);
        List<String> warnings = new ArrayList<>(
                lines.stream().filter(l -> l.startsWith("WARN ")).toList());
        warnings.removeIf(l -> l.contains("applies as superuser"));
        assertEquals(List.of(), warnings, "passing over another group's records is no cause for a warning");
    }

    private static DataCollectionCount ledger(long count) {
        return new DataCollectionCount("public.ledger", count, LEDGER_TOPIC);
    }

    private static DataCollectionCount other(long count) {
        return new DataCollectionCount("public.other", count, OTHER_TOPIC);
    }

    private static Marker.End end(
            long xid, String endLsn, long count, List<DataCollectionCount> counts, SnapshotChunk snapshot) {
        Lsn end = Lsn.parse(endLsn);
        return new Marker.End(
                7, xid, Lsn.valueOf(end.asLong() - 0x30), end, 1_700_000_000_000_000L + xid, count, counts, snapshot);
    }

    private static SnapshotChunk otherChunk() {
        return new SnapshotChunk(
                "1796000000000",
                "public.other",
                0,
                true,
                true,
                new SnapshotChunk.KeyRange(List.of("id"), null, null),
                true);
    }
}
