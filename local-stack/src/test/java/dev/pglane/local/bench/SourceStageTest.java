package dev.pglane.local.bench;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

@Timeout(value = 10, unit = TimeUnit.SECONDS)
class SourceStageTest {
    private final List<String> calls = new ArrayList<>();

    private SourceStage.Reader reader(SourceSystem system) {
        return (slot, backlog, run) -> {
            calls.add(slot);
            return new Measurement(system.label(), 1, 1, 1, 0, 0, Map.of(), 0L);
        };
    }

    @Test
    void everyReaderHasItsSlotPerRunAndTheOrderRotatesWithTheRun() throws Exception {
        SourceStage stage = new SourceStage()
                .with(SourceSystem.RECVLOGICAL, reader(SourceSystem.RECVLOGICAL))
                .with(SourceSystem.PGLANE_KAFKA, reader(SourceSystem.PGLANE_KAFKA))
                .with(SourceSystem.DEBEZIUM, reader(SourceSystem.DEBEZIUM));

        assertEquals(List.of("bench_recvlogical_2", "bench_pglane_kafka_2", "bench_debezium_2"), stage.slots(2));
        stage.measure(null, 1);
        stage.measure(null, 2);
        assertEquals(
                List.of(
                        "bench_recvlogical_1",
                        "bench_pglane_kafka_1",
                        "bench_debezium_1",
                        "bench_pglane_kafka_2",
                        "bench_debezium_2",
                        "bench_recvlogical_2"),
                calls);
    }
}
