package dev.pglane.local.bench.sustained;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

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

        assertEquals(List.of(SustainedSystem.values()), options.systems());
        assertEquals(List.of(250, 500, 1000, 2000, 4000), options.rates());
        assertEquals(Duration.ofSeconds(60), options.step());
        assertEquals(3, options.runs());
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
