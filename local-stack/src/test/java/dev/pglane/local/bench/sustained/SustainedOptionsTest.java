package dev.pglane.local.bench.sustained;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

@Timeout(value = 10, unit = TimeUnit.SECONDS)
class SustainedOptionsTest {
    @Test
    void byDefaultEverySystemInBothFormatsSixtySecondStepsAndThreeRuns() {
        SustainedOptions options = SustainedOptions.parse(new String[0]);

        assertEquals(
                List.of(
                        SustainedSystem.PGLANE_JSON,
                        SustainedSystem.PGLANE_AVRO,
                        SustainedSystem.SUBSCRIBER,
                        SustainedSystem.DEBEZIUM),
                options.systems(),
                "the table-group systems only when asked for");
        assertEquals(List.of(250, 500, 1000, 2000, 4000), options.rates());
        assertEquals(Duration.ofSeconds(60), options.step());
        assertEquals(3, options.runs());
    }

    @Test
    void theTableGroupSystemsSplitPglanesSinkAndReadAvro() {
        SustainedOptions options =
                SustainedOptions.parse(new String[] {"--systems", "pglane-avro-2-groups,pglane-avro-4-groups"});

        assertEquals(
                List.of(SustainedSystem.PGLANE_AVRO_2_GROUPS, SustainedSystem.PGLANE_AVRO_4_GROUPS), options.systems());
        assertEquals(
                List.of(2, 4),
                options.systems().stream().map(SustainedSystem::sinkGroups).toList());
        assertTrue(options.needsRegistry());
        assertEquals(
                "sus\\.(transactions|public\\.(pgbench_tellers|lag_probe))",
                PglaneGroups.of(4).topicsRegex("sus", 1).replace("\\Q", "").replace("\\E", ""));
    }

    @Test
    void quickIsASmokeRunWhoseOptionsGivenBesideItWin() {
        SustainedOptions options =
                SustainedOptions.parse(new String[] {"--quick", "--systems", "subscriber,pglane-json"});

        assertEquals(List.of(SustainedSystem.SUBSCRIBER, SustainedSystem.PGLANE_JSON), options.systems());
        assertEquals(List.of(200, 800), options.rates());
        assertEquals(Duration.ofSeconds(15), options.step());
        assertEquals(1, options.runs());
    }

    @Test
    void formatPicksPglanesFormatWhenNoSystemIsNamed() {
        assertEquals(
                List.of(SustainedSystem.PGLANE_AVRO, SustainedSystem.SUBSCRIBER, SustainedSystem.DEBEZIUM),
                SustainedOptions.parse(new String[] {"--format", "avro"}).systems());
    }

    @Test
    void ratesMustRiseAndSystemsMustBeKnown() {
        assertThrows(IllegalArgumentException.class, () -> SustainedOptions.parse(new String[] {"--rates", "500,250"}));
        assertThrows(
                IllegalArgumentException.class, () -> SustainedOptions.parse(new String[] {"--systems", "maxwell"}));
    }
}
