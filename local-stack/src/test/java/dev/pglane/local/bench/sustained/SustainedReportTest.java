package dev.pglane.local.bench.sustained;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

@Timeout(value = 10, unit = TimeUnit.SECONDS)
class SustainedReportTest {
    private static final List<Integer> RATES = List.of(500, 1000, 4000);

    private static StepResult step(SustainedSystem system, int run, int asked, double achieved, double p99, boolean b) {
        return new StepResult(system, run, asked, achieved, 60, StepPolicyTest.lag(b, p99));
    }

    private static SustainedReport report() {
        SustainedReport report = new SustainedReport(
                "env",
                BoundedRule.DEFAULT,
                List.of(SustainedSystem.PGLANE_JSON, SustainedSystem.SUBSCRIBER, SustainedSystem.DEBEZIUM),
                RATES,
                60);
        SustainedSystem pglane = SustainedSystem.PGLANE_JSON;
        // pglane: 1000 within 1 s in runs 1 and 3; in run 2 its p99 at 1000 was 1.2 s, so 500 is that run's best
        report.add(run(pglane, 1, step(pglane, 1, 500, 493, 0.33, true), step(pglane, 1, 1000, 994, 0.57, true)));
        report.add(run(pglane, 2, step(pglane, 2, 500, 497, 0.35, true), step(pglane, 2, 1000, 990, 1.2, true)));
        report.add(run(pglane, 3, step(pglane, 3, 500, 495, 0.30, true), step(pglane, 3, 1000, 998, 0.60, true)));
        SustainedSystem subscriber = SustainedSystem.SUBSCRIBER;
        for (int run = 1; run <= 3; run++) {
            report.add(run(
                    subscriber,
                    run,
                    step(subscriber, run, 500, 496, 0.27, true),
                    step(subscriber, run, 1000, 999, 0.27, true),
                    step(subscriber, run, 4000, 1600 + run * 10, 0.27, true)));
        }
        SustainedSystem debezium = SustainedSystem.DEBEZIUM;
        report.add(run(debezium, 1, step(debezium, 1, 500, 450, 7.0, false)));
        return report;
    }

    private static SystemRun run(SustainedSystem system, int run, StepResult... steps) {
        return new SystemRun(
                system, run, List.of(steps), StepPolicy.Next.STOP_LAST, true, "target equal to the source");
    }

    @Test
    void theHeadlineIsTheMedianOverRunsOfEachRunsHighestRateWithP99WithinOneSecond() {
        String md = SustainedMarkdown.render(report());

        // pglane's runs: 994, 497, 998 -> 994; the subscriber's 1610, 1620, 1630 -> 1620
        assertTrue(
                md.contains(
                        "| pglane (JSON) | 994 (497..998) tx/s | 0.30 / 0.60 / 0.90 s | 0.61× | 994 (990..998) tx/s |"),
                md);
        assertTrue(
                md.contains(
                        "| PostgreSQL subscriber | 1,620 (1,610..1,630) tx/s | 0.14 / 0.27 / 0.41 s | 1.00× | 1,620 (1,610..1,630) tx/s |"),
                md);
        assertTrue(md.contains("| Debezium source + JDBC sink | none | - | 0.00× | none |"), md);
        assertTrue(md.indexOf("| pglane (JSON) | 994") < md.indexOf("## Every step"), "the headline table leads");
    }

    @Test
    void aSystemBoundedOnlyAboveOneSecondHasNoHeadlineRateButShowsItsHighestBoundedRate() {
        SustainedSystem debezium = SustainedSystem.DEBEZIUM;
        SustainedReport report = new SustainedReport("env", BoundedRule.DEFAULT, List.of(debezium), RATES, 60);
        report.add(run(
                debezium,
                1,
                step(debezium, 1, 500, 497, 1.3, true),
                step(debezium, 1, 1000, 993, 1.6, true),
                step(debezium, 1, 4000, 1417, 11.6, false)));

        String md = SustainedMarkdown.render(report);

        assertTrue(md.contains("| Debezium source + JDBC sink | none | - | - | 993 tx/s |"), md);
    }

    @Test
    void everyStepShowsItsMediansAndWhetherMostRunsFoundItBounded() {
        String md = SustainedMarkdown.render(report());

        assertTrue(
                md.contains("| pglane (JSON) | 1000 | 994 (990..998) | 0.30 s (0.29..0.60) | 0.60 s (0.57..1.20) |"),
                md);
        assertTrue(md.contains("| yes (3 of 3) |"), md);
        assertTrue(md.contains("| Debezium source + JDBC sink | 500 | 450 | 3.50 s | 7.00 s | 10.50 s | **no** |"), md);
        assertTrue(md.contains(BoundedRule.DEFAULT.describe()), "the rule is written down:\n" + md);
    }

    @Test
    void theSectionIsMergedIntoReportJsonBesideTheOtherStagesEntries(@TempDir Path dir) throws Exception {
        Files.writeString(dir.resolve("report.json"), "{\"runs\": [{\"stage\": \"sink\", \"tx_per_s\": 1}]}");

        report().write(dir);

        JsonNode root = new ObjectMapper().readTree(dir.resolve("report.json").toFile());
        assertEquals("sink", root.path("runs").get(0).path("stage").asText(), "the other stages stay");
        JsonNode systems = root.path("sustained").path("systems");
        assertEquals("pglane-json", systems.get(0).path("system").asText());
        assertEquals(
                994.0,
                systems.get(0)
                        .path("highest_rate_p99_within_headline_tx_per_s")
                        .path("median")
                        .asDouble());
        // pglane at 1000: run 2's p99 was 1.2 s
        assertEquals(
                2,
                systems.get(0).path("steps").get(1).path("meets_headline_runs").asInt());
        assertEquals(2 * 3 + 3 * 3 + 1, root.path("sustained").path("steps").size());
        assertTrue(Files.readString(dir.resolve("sustained-report.md")).startsWith("# Sustained rate"));
        assertTrue(Files.exists(dir.resolve("sustained-report.json")));
    }

    @Test
    void aTargetThatDiffersFromTheSourceFailsTheReport() {
        SustainedReport report = report();
        assertFalse(report.hasFailures());

        report.add(new SystemRun(
                SustainedSystem.DEBEZIUM, 2, List.of(), StepPolicy.Next.STOP_UNBOUNDED, false, "1 row differs"));

        assertTrue(report.hasFailures());
    }
}
