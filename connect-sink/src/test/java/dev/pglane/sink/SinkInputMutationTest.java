package dev.pglane.sink;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.pglane.sink.apply.TargetServer;
import dev.pglane.wire.Lsn;
import java.io.IOException;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Random;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.apache.kafka.connect.sink.SinkRecord;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * The sink's input, spoiled systematically: records a real source wrote for a table of every type family (and a
 * plain one), as the bytes Kafka held (payload.format=json), each run through a real {@link PgSinkTask} against a
 * real target with one record truncated, flipped, stripped of a field, given another type, a huge value, a spoiled
 * column parameter, a generation from the future, another xid, sent on another table's topic or twice, or a marker
 * with wrong counts, LSNs or fields.
 *
 * <p>Each must end as one of: the record in the dead-letter queue (with a reason); the task stopped with a message
 * naming it (its position, or its transaction's xid); or a skip the task counts in a metric and logs
 * (dropped-records-total, abandoned-transactions-total, or head-wait-ms for a transaction left waiting) — never a
 * hang, an {@code Error}, a row of another transaction changed, a state the source never had, or a record gone
 * without a trace. A mutation that leaves a valid record of other values may change its own transaction's rows:
 * the sink cannot tell it from the source's.
 *
 * <p>A fixed seed and {@value #DEFAULT_COUNT} mutations by default; {@code -Dpglane.mutation.count=N} (and
 * {@code -Dpglane.mutation.seed=S}) for a longer run; {@code -Dpglane.mutation.from=N} starts at the Nth.
 */
@Timeout(value = 300, unit = TimeUnit.SECONDS)
class SinkInputMutationTest {
    static final int DEFAULT_COUNT = 120;
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final List<String> TABLES = List.of("public.every_type", "public.other");

    @RegisterExtension
    static final TargetServer target = new TargetServer();

    private static CapturedStream captured;
    private static MutationRound round;
    private static ExecutorService runner;
    private static Lsn lastEnd;
    /** The source transactions of the stream (its ENDs). */
    private static long transactions;
    /** Per row key ({@code table:id}), every version the row had in some committed state of the source. */
    private static final Map<String, Set<String>> versions = new HashMap<>();

    private static final Map<String, String> finalRows = new TreeMap<>();
    /** Per xid, the row keys its changes touch. */
    private static final Map<Long, Set<String>> touched = new HashMap<>();

    @BeforeAll
    static void loadAndApplyTheUnspoiledStream() throws Exception {
        captured = CapturedStream.load("mutation/captured-json.txt");
        target.execute(captured.ddl().toArray(String[]::new));
        round = new MutationRound(target, captured, TABLES);
        runner = Executors.newSingleThreadExecutor(r -> new Thread(r, "mutation-round"));
        List<SinkRecord> markers = captured.records().stream()
                .filter(r -> r.topic().equals(captured.markerTopic()))
                .toList();
        List<SinkRecord> changes = captured.records().stream()
                .filter(r -> !r.topic().equals(captured.markerTopic()))
                .toList();
        changes.forEach(SinkInputMutationTest::noteTouchedRows);
        transactions = markers.stream()
                .filter(r -> payload(r).path("status").asText().equals("END"))
                .count();
        lastEnd = Lsn.valueOf(markers.stream()
                .mapToLong(r -> payload(r).path("end_lsn").asLong(0))
                .max()
                .orElseThrow());
        // every committed state: the changes with the markers up to each END
        for (int k = 2; k <= markers.size(); k++) {
            List<SinkRecord> prefix = new ArrayList<>(changes);
            prefix.addAll(markers.subList(0, k));
            Lsn through =
                    Lsn.valueOf(payload(markers.get(k - 1)).path("end_lsn").asLong());
            MutationRound.Outcome outcome = round.run(prefix, through, k - 1);
            assertEquals(null, outcome.stopped(), "the source's own records apply");
            for (String row : outcome.rows()) {
                versions.computeIfAbsent(key(row), ignored -> new HashSet<>()).add(row);
            }
            if (k == markers.size()) {
                outcome.rows().forEach(row -> finalRows.put(key(row), row));
                assertEquals(lastEnd, outcome.progress());
                assertEquals(List.of(), outcome.deadLettered());
            }
        }
    }

    @AfterAll
    static void stopRunner() throws SQLException {
        runner.shutdownNow();
        round.close();
    }

    @Test
    void theUnspoiledStreamAppliesEveryTypeFamily() {
        assertEquals(6, finalRows.size(), "every_type ids 1, 2, 40 and other ids 1, 2, 4: " + finalRows.keySet());
        assertTrue(
                finalRows.get("public.every_type:40").contains("\"c_numeric\""), finalRows.get("public.every_type:40"));
        assertTrue(finalRows.get("public.other:1").contains("\"uno\""), finalRows.get("public.other:1"));
    }

    @Test
    void everySpoiledRecordEndsInTheDeadLetterQueueAStopOrACountedSkip() throws Exception {
        long seed = Long.getLong("pglane.mutation.seed", 35L);
        int count = Integer.getInteger("pglane.mutation.count", DEFAULT_COUNT);
        Random random = new Random(seed);
        InputMutations mutations = new InputMutations(captured);
        Map<String, Integer> outcomes = new LinkedHashMap<>();
        int from = Integer.getInteger("pglane.mutation.from", 0);
        for (int i = 0; i < count; i++) {
            InputMutations.Mutation mutation = mutations.next(random);
            if (i < from) {
                continue; // -Dpglane.mutation.from=N runs again from the Nth of a seed
            }
            String where = "mutation " + i + " (seed " + seed + "): " + mutation.kind();
            MutationRound.Outcome outcome = runBounded(mutation, where);
            outcomes.merge(judge(mutation, outcome, where), 1, Integer::sum);
        }
        System.out.println("SinkInputMutationTest outcomes of " + count + " mutations: " + outcomes);
    }

    private static MutationRound.Outcome runBounded(InputMutations.Mutation mutation, String where) throws Exception {
        Future<MutationRound.Outcome> future = runner.submit(() -> round.run(mutation.stream(), lastEnd, transactions));
        try {
            return future.get(MutationRound.HANG.toSeconds() + 10, TimeUnit.SECONDS);
        } catch (TimeoutException e) {
            future.cancel(true);
            throw new AssertionError(where + ": the task hung", e);
        } catch (ExecutionException e) {
            throw new AssertionError(where + ": " + e.getCause(), e.getCause());
        }
    }

    /** Checks the outcome against the rules of the class comment; returns its class. */
    private static String judge(InputMutations.Mutation mutation, MutationRound.Outcome outcome, String where) {
        SinkRecord mutated = mutation.mutated();
        String position = CapturedStream.position(mutated);
        for (SinkRecord reported : outcome.deadLettered()) {
            assertEquals(
                    position, CapturedStream.position(reported), where + ": only the spoiled record goes to the DLQ");
        }
        Set<String> own = ownRows(mutation);
        checkRows(outcome, own, where);
        if (!outcome.deadLettered().isEmpty()) {
            // its transaction applied without it: a later change of its rows may then stop the task, naming that one
            assertTrue(outcome.causes().get(0).getMessage() != null, where + ": a DLQ record has a reason");
            return "dead-lettered";
        }
        if (outcome.stopped() != null) {
            String message = messages(outcome.stopped());
            boolean names = message.contains(position) || namesXid(message, mutation.xid());
            assertTrue(names, where + ": the stop names neither the record nor its transaction: " + message);
            return "stopped";
        }
        long skips = outcome.metric("dropped-records-total")
                + outcome.metric("abandoned-transactions-total")
                + outcome.metric("per-key-records-skipped-total");
        boolean finished = finished(outcome);
        if (!finished) {
            assertTrue(
                    skips > 0 || outcome.metric("head-wait-ms") > 0,
                    where + ": the task stopped applying at " + outcome.progress() + " with nothing counted");
            return skips > 0 ? "skipped" : "waiting";
        }
        boolean ownRowsAsSent = own.stream().allMatch(key -> Objects.equals(finalRows.get(key), row(outcome, key)));
        if (!ownRowsAsSent) {
            assertTrue(
                    skips > 0 || changesValues(mutation),
                    where + ": its transaction's rows differ from the source's, and nothing says why");
            return skips > 0 ? "skipped" : "applied as a different valid record";
        }
        return skips > 0 ? "skipped" : "applied unchanged";
    }

    /** Whether every source transaction applied: the last END's LSN was reached, or a spoiled one's was. */
    private static boolean finished(MutationRound.Outcome outcome) {
        return lastEnd.equals(outcome.progress()) || outcome.metric("transactions-total") >= transactions;
    }

    /** Rows outside the spoiled transaction are as in some committed state; all as in the last one if it finished. */
    private static void checkRows(MutationRound.Outcome outcome, Set<String> own, String where) {
        boolean finished = finished(outcome);
        Set<String> seen = new HashSet<>();
        for (String row : outcome.rows()) {
            String key = key(row);
            seen.add(key);
            if (own.contains(key)) {
                continue;
            }
            if (finished) {
                assertEquals(finalRows.get(key), row, where + ": a row of another transaction");
            } else {
                assertTrue(
                        versions.getOrDefault(key, Set.of()).contains(row),
                        where + ": a row the source never had: " + row);
            }
        }
        if (finished) {
            for (String key : finalRows.keySet()) {
                assertTrue(own.contains(key) || seen.contains(key), where + ": row " + key + " is missing");
            }
        }
    }

    /** The rows the spoiled record's transaction touches, and those it names itself; every row for a START. */
    private static Set<String> ownRows(InputMutations.Mutation mutation) {
        if (mutation.xid() < 0) {
            return new HashSet<>(versions.keySet());
        }
        Set<String> own = new HashSet<>(touched.getOrDefault(mutation.xid(), Set.of()));
        try {
            own.addAll(rowsOf(mutation.mutated()));
        } catch (RuntimeException e) {
            // bytes that do not parse name no row
        }
        return own;
    }

    private static void noteTouchedRows(SinkRecord record) {
        long xid = payload(record.key()).path("xid").asLong();
        touched.computeIfAbsent(xid, ignored -> new HashSet<>()).addAll(rowsOf(record));
    }

    private static Set<String> rowsOf(SinkRecord record) {
        String table = record.topic().substring(record.topic().indexOf('.') + 1);
        JsonNode payload = payload(record);
        Set<String> rows = new HashSet<>();
        for (String image : List.of("before", "after")) {
            JsonNode id = payload.path(image).path("id");
            if (!id.isMissingNode() && !id.isNull()) {
                rows.add(table + ":" + id.asText());
            }
        }
        return rows;
    }

    /** Whether the spoiled record still parses and carries other row images than the record it replaced. */
    private static boolean changesValues(InputMutations.Mutation mutation) {
        if (mutation.original() == null) {
            return false;
        }
        try {
            JsonNode spoiled = payload(mutation.mutated());
            JsonNode original = payload(mutation.original());
            return !spoiled.path("before").equals(original.path("before"))
                    || !spoiled.path("after").equals(original.path("after"))
                    || !spoiled.path("text_values").equals(original.path("text_values"));
        } catch (RuntimeException e) {
            return false;
        }
    }

    /** Whether {@code message} names {@code xid}: alone, or inside a group's range {@code xids 744…750}. */
    private static boolean namesXid(String message, long xid) {
        if (xid < 0) {
            return false;
        }
        if (message.matches("(?s).*\\b" + xid + "\\b.*")) {
            return true;
        }
        java.util.regex.Matcher range =
                java.util.regex.Pattern.compile("xids (\\d+)…(\\d+)").matcher(message);
        while (range.find()) {
            if (Long.parseLong(range.group(1)) <= xid && xid <= Long.parseLong(range.group(2))) {
                return true;
            }
        }
        return false;
    }

    private static String row(MutationRound.Outcome outcome, String key) {
        return outcome.rows().stream()
                .filter(row -> key(row).equals(key))
                .findFirst()
                .orElse(null);
    }

    private static String key(String row) {
        return row.substring(0, row.indexOf(' '));
    }

    private static String messages(Throwable e) {
        StringBuilder all = new StringBuilder();
        for (Throwable t = e; t != null; t = t.getCause()) {
            all.append(t.getMessage()).append(" | ");
        }
        return all.toString();
    }

    private static JsonNode payload(SinkRecord record) {
        return payload(record.value());
    }

    private static JsonNode payload(Object bytes) {
        try {
            return JSON.readTree((byte[]) bytes).path("payload");
        } catch (IOException e) {
            throw new IllegalArgumentException(e);
        }
    }
}
