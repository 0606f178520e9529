package dev.pglane.sink;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import dev.pglane.wire.Lsn;
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

/**
 * The rules of the sink's mutation tests, for records of any format (a {@link RecordCodec}): learns every committed
 * state of the source from the unspoiled stream, then runs spoiled streams through {@link MutationRound}s and checks
 * each outcome. Each must end as one of: the record in the dead-letter queue (with a reason); the task stopped with
 * a message naming it (its position, or its transaction's xid); or a skip the task counts in a metric and logs
 * (dropped-records-total, abandoned-transactions-total, or head-wait-ms for a transaction left waiting) — never a
 * hang, an {@code Error}, a row of another transaction changed, a state the source never had, or a record gone
 * without a trace. A mutation that leaves a valid record of other values may change its own transaction's rows:
 * the sink cannot tell it from the source's.
 */
final class MutationJudge implements AutoCloseable {
    private final CapturedStream captured;
    private final RecordCodec codec;
    private final MutationRound round;
    private final ExecutorService runner = Executors.newSingleThreadExecutor(r -> new Thread(r, "mutation-round"));
    private Lsn lastEnd;
    /** The source transactions of the stream (its ENDs). */
    private long transactions;
    /** Per row key ({@code table:id}), every version the row had in some committed state of the source. */
    private final Map<String, Set<String>> versions = new HashMap<>();

    private final Map<String, String> finalRows = new TreeMap<>();
    /** Per xid, the row keys its changes touch. */
    private final Map<Long, Set<String>> touched = new HashMap<>();

    private MutationJudge(CapturedStream captured, RecordCodec codec, MutationRound round) {
        this.captured = captured;
        this.codec = codec;
        this.round = round;
    }

    /** A judge that has applied the unspoiled stream up to each of its ENDs through {@code round}. */
    static MutationJudge learn(CapturedStream captured, RecordCodec codec, MutationRound round) throws Exception {
        MutationJudge judge = new MutationJudge(captured, codec, round);
        judge.applyTheUnspoiledStream();
        return judge;
    }

    private void applyTheUnspoiledStream() throws Exception {
        List<SinkRecord> markers = captured.records().stream()
                .filter(r -> r.topic().equals(captured.markerTopic()))
                .toList();
        List<SinkRecord> changes = captured.records().stream()
                .filter(r -> !r.topic().equals(captured.markerTopic()))
                .toList();
        changes.forEach(this::noteTouchedRows);
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

    /** Per row key, the row as the last committed state of the source has it. */
    Map<String, String> finalRows() {
        return finalRows;
    }

    /**
     * Runs {@code count} mutations drawn with {@code seed}, from the {@code from}th, and judges each.
     *
     * @return how many ended in each outcome class
     */
    Map<String, Integer> run(long seed, int count, int from) throws Exception {
        Random random = new Random(seed);
        InputMutations mutations = new InputMutations(captured, codec);
        Map<String, Integer> outcomes = new LinkedHashMap<>();
        for (int i = 0; i < count; i++) {
            InputMutations.Mutation mutation = mutations.next(random);
            if (i < from) {
                continue; // from = N runs again from the Nth of a seed
            }
            String where = "mutation " + i + " (seed " + seed + "): " + mutation.kind();
            MutationRound.Outcome outcome = runBounded(mutation, where);
            outcomes.merge(judge(mutation, outcome, where), 1, Integer::sum);
        }
        return outcomes;
    }

    @Override
    public void close() throws Exception {
        runner.shutdownNow();
        round.close();
    }

    private MutationRound.Outcome runBounded(InputMutations.Mutation mutation, String where) throws Exception {
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
    private String judge(InputMutations.Mutation mutation, MutationRound.Outcome outcome, String where) {
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
    private boolean finished(MutationRound.Outcome outcome) {
        return lastEnd.equals(outcome.progress()) || outcome.metric("transactions-total") >= transactions;
    }

    /** Rows outside the spoiled transaction are as in some committed state; all as in the last one if it finished. */
    private void checkRows(MutationRound.Outcome outcome, Set<String> own, String where) {
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
    private Set<String> ownRows(InputMutations.Mutation mutation) {
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

    private void noteTouchedRows(SinkRecord record) {
        long xid = keyPayload(record).path("xid").asLong();
        touched.computeIfAbsent(xid, ignored -> new HashSet<>()).addAll(rowsOf(record));
    }

    private Set<String> rowsOf(SinkRecord record) {
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
    private boolean changesValues(InputMutations.Mutation mutation) {
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
    private boolean namesXid(String message, long xid) {
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

    private String row(MutationRound.Outcome outcome, String key) {
        return outcome.rows().stream()
                .filter(row -> key(row).equals(key))
                .findFirst()
                .orElse(null);
    }

    private String key(String row) {
        return row.substring(0, row.indexOf(' '));
    }

    private String messages(Throwable e) {
        StringBuilder all = new StringBuilder();
        for (Throwable t = e; t != null; t = t.getCause()) {
            all.append(t.getMessage()).append(" | ");
        }
        return all.toString();
    }

    private JsonNode payload(SinkRecord record) {
        return codec.read(record.topic(), false, (byte[]) record.value()).path("payload");
    }

    private JsonNode keyPayload(SinkRecord record) {
        return codec.read(record.topic(), true, (byte[]) record.key()).path("payload");
    }
}
