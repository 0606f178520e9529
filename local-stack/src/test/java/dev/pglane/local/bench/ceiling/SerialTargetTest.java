package dev.pglane.local.bench.ceiling;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.pglane.local.bench.ceiling.StageCost.Kind;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

@Timeout(value = 10, unit = TimeUnit.SECONDS)
class SerialTargetTest {
    @Test
    void theHeaviestSerialStageOfAnyColumnIsJudgedAgainstTenMicroseconds() {
        Map<String, List<StageCost>> columns = new LinkedHashMap<>();
        columns.put(
                "1 worker",
                List.of(new StageCost("task thread", Kind.SERIAL, 9.5), new StageCost("workers", Kind.PARALLEL, 90)));
        columns.put(
                "4 workers",
                List.of(
                        new StageCost("task thread", Kind.SERIAL, 12.25),
                        new StageCost("target", Kind.DATABASE_PARALLEL, 120)));

        SerialTarget heaviest = SerialTarget.heaviest(columns);

        // the parallel and database stages cost more, but the target is for the serial ones
        assertEquals("4 workers", heaviest.column());
        assertEquals("heaviest: task thread, 12.3 µs (4 workers)", heaviest.describe());
        assertFalse(heaviest.met());
        assertTrue(SerialTarget.heaviest(Map.of("1 worker", List.of(new StageCost("task thread", Kind.SERIAL, 10))))
                .met());
        assertNull(SerialTarget.heaviest(Map.of("1 worker", List.of(new StageCost("workers", Kind.PARALLEL, 5)))));
    }
}
