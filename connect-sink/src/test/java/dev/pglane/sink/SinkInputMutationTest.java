package dev.pglane.sink;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.pglane.sink.apply.TargetServer;
import dev.pglane.sink.decode.DecodeSettings;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
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
 * <p>Each must end as {@link MutationJudge} says: in the dead-letter queue, a stop naming it, or a counted skip.
 *
 * <p>A fixed seed and {@value #DEFAULT_COUNT} mutations by default; {@code -Dpglane.mutation.count=N} (and
 * {@code -Dpglane.mutation.seed=S}) for a longer run; {@code -Dpglane.mutation.from=N} starts at the Nth.
 */
@Timeout(value = 300, unit = TimeUnit.SECONDS)
class SinkInputMutationTest {
    static final int DEFAULT_COUNT = 120;
    private static final List<String> TABLES = List.of("public.every_type", "public.other");

    @RegisterExtension
    static final TargetServer target = new TargetServer();

    private static MutationJudge judge;

    @BeforeAll
    static void loadAndApplyTheUnspoiledStream() throws Exception {
        CapturedStream captured = CapturedStream.load("mutation/captured-json.txt");
        target.execute(captured.ddl().toArray(String[]::new));
        MutationRound round =
                new MutationRound(target, captured, TABLES, Map.of(DecodeSettings.PAYLOAD_FORMAT, "json"));
        judge = MutationJudge.learn(captured, RecordCodec.JSON, round);
    }

    @AfterAll
    static void stopRunner() throws Exception {
        judge.close();
    }

    @Test
    void theUnspoiledStreamAppliesEveryTypeFamily() {
        Map<String, String> finalRows = judge.finalRows();
        assertEquals(6, finalRows.size(), "every_type ids 1, 2, 40 and other ids 1, 2, 4: " + finalRows.keySet());
        assertTrue(
                finalRows.get("public.every_type:40").contains("\"c_numeric\""), finalRows.get("public.every_type:40"));
        assertTrue(finalRows.get("public.other:1").contains("\"uno\""), finalRows.get("public.other:1"));
    }

    @Test
    void everySpoiledRecordEndsInTheDeadLetterQueueAStopOrACountedSkip() throws Exception {
        long seed = Long.getLong("pglane.mutation.seed", 35L);
        int count = Integer.getInteger("pglane.mutation.count", DEFAULT_COUNT);
        Map<String, Integer> outcomes = judge.run(seed, count, Integer.getInteger("pglane.mutation.from", 0));
        System.out.println("SinkInputMutationTest outcomes of " + count + " mutations: " + outcomes);
    }
}
