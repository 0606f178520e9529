package dev.pglane.local.bench;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.pglane.wire.Lsn;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

@Timeout(value = 10, unit = TimeUnit.SECONDS)
class SinkReportTest {
    private static final Backlog.Info BACKLOG = new Backlog.Info(
            Workload.PGBENCH, 1000, 4000, Lsn.parse("0/1000000"), Lsn.parse("0/2000000"), 7, Lsn.parse("0/1FFFF00"), 1);

    private static CatchUpMeasurement run(String system, int workers, int run, double seconds) {
        return new CatchUpMeasurement(
                system,
                workers,
                run,
                seconds,
                seconds / 10,
                1000,
                4000,
                system.equals("pg_native") ? 1.0 : 0.0,
                2.0,
                system.equals("pg_native") ? null : 3.0,
                system.equals("pg_native") ? Map.of() : Map.of("pglane apply", workers * 0.5));
    }

    private static SinkReport report() {
        SinkReport report = new SinkReport("env", BACKLOG, null);
        // PostgreSQL's subscriber: 1000 and 500 tx/s; pglane with 2 workers: 500 and 1000 tx/s
        report.add(run("pglane", 2, 1, 2.0));
        report.add(run("pg_native", 1, 1, 1.0));
        report.add(run("pg_native", 1, 2, 2.0));
        report.add(run("pglane", 2, 2, 1.0));
        report.add(run("pglane", 1, 1, 4.0));
        return report;
    }

    @Test
    void eachConfigurationHasItsMedianRangeAndRatioToTheSubscriberOfTheSameRun() {
        String md = report().markdown();

        assertTrue(
                md.contains(
                        "| PostgreSQL subscriber | 2 | 1.50 | 0.15 | 750 | 500..1,000 | 3,000 | - | 2.00 | 1.00 | - |"),
                md);
        // run 1: 500 / 1000, run 2: 1000 / 500
        assertTrue(
                md.contains("| pglane, 2 workers | 2 | 1.50 | 0.15 | 750 | 500..1,000 | 3,000 | 1.25× (0.50..2.00) |"),
                md);
        assertTrue(
                md.contains("| pglane, 1 worker | 1 | 4.00 | 0.40 | 250 | 250..250 | 1,000 | 0.25× (0.25..0.25) |"),
                md);
        assertTrue(
                md.indexOf("PostgreSQL subscriber |") < md.indexOf("pglane, 1 worker |")
                        && md.indexOf("pglane, 1 worker |") < md.indexOf("pglane, 2 workers |"),
                "the subscriber first, then pglane by worker count:\n" + md);
    }

    @Test
    void eachWorkerCountIsSetAgainstOneWorkerAndAgainstTheNextSmallerCount() {
        SinkReport report = new SinkReport("env", BACKLOG, null);
        // 1 worker: 250 tx/s twice; 2 workers: 500 and 400; 4 workers: 400 twice
        for (int run = 1; run <= 2; run++) {
            report.add(run("pglane", 1, run, 4.0));
            report.add(run("pglane", 2, run, run == 1 ? 2.0 : 2.5));
            report.add(run("pglane", 4, run, 2.5));
        }

        String md = report.markdown();

        assertTrue(md.contains(" | vs 1 worker |\n"), md);
        assertTrue(md.contains("| 1.00× (1.00..1.00) |\n"), "1 worker against itself:\n" + md);
        assertTrue(md.contains("| 1.80× (1.60..2.00) |\n"), "2 workers: 500 / 250 and 400 / 250:\n" + md);
        assertTrue(md.contains("| 1.60× (1.60..1.60) |\n"), "4 workers: 400 / 250:\n" + md);
        assertTrue(
                md.contains("Each worker count against the next smaller, rate ratio in the same runs:"
                        + " 1 → 2 workers 1.80× (1.60..2.00); 2 → 4 workers 0.90× (0.80..1.00)."),
                md);
        SinkReport.StepUp slowest = report.slowestStepUp();
        assertEquals(2, slowest.fewer());
        assertEquals(4, slowest.workers());
        assertEquals(0.9, slowest.ratio().median(), 1e-9, "4 workers slower than 2: the step that misses #36");
    }

    @Test
    void withoutASecondWorkerCountThereIsNoStepUp() {
        SinkReport report = new SinkReport("env", BACKLOG, null);
        report.add(run("pg_native", 1, 1, 1.0));
        report.add(run("pglane", 8, 1, 2.0));

        assertNull(report.slowestStepUp());
        assertTrue(report.markdown().contains("| - |\n"), "no 1-worker run to compare 8 workers with");
        assertFalse(report.markdown().contains("Each worker count against"));
    }

    @Test
    void theChartTheBreakdownAndTheFailuresFollowTheTable() {
        SinkReport report = report();
        report.fail(new SinkReport.Failure("pglane, 8 workers", 1, "the target differs\nin pgbench_accounts"));

        String md = report.markdown();

        assertTrue(md.contains("PostgreSQL subscriber |" + "#".repeat(50) + " 750"), md);
        assertTrue(md.contains("pglane, 1 worker      |" + "#".repeat(17) + " 250"), md);
        assertTrue(
                md.contains("| thread group | 1 worker | 2 workers |\n|---|---:|---:|\n| pglane apply | 0.50 | 1.00 |"),
                md);
        assertTrue(md.contains("- pglane, 8 workers, run 1: the target differs\n  in pgbench_accounts"), md);
        assertTrue(report.hasFailures());
    }

    @Test
    void eachSerialStageIsBesideItsTargetAndTheCeilingsNameTheStageThatCapsThem() {
        // the source stage put the 1,000 transactions into Kafka: reader 8 µs, task thread 30 µs, producer 5 µs per
        // transaction (serial), lanes 60 µs (parallel), the source server 20 µs (its walsender, serial)
        Measurement source = new Measurement(
                ConnectorRun.SYSTEM,
                1.0,
                1000,
                4000,
                0.02,
                1.0,
                Map.of(
                        ThreadCpu.pglane("reader"),
                        0.008,
                        ThreadCpu.TASK_THREAD,
                        0.03,
                        ThreadCpu.PRODUCER_NETWORK,
                        0.005,
                        ThreadCpu.pglane("lane"),
                        0.06,
                        "kafka broker",
                        0.5),
                0L);
        SinkReport report = new SinkReport("env", BACKLOG, source);
        // the sink with 1 worker, two runs: task thread 40 and 48 µs (median 44), decode 20, worker 100, target 400
        report.add(sinkRun(1, 0.040, 0.4));
        report.add(sinkRun(2, 0.048, 0.4));

        String md = report.markdown();

        assertTrue(md.contains("| stage | kind | target µs/tx | source into Kafka | pglane, 1 worker |"), md);
        assertTrue(md.contains("| source reader thread (replication stream) | serial | ≤ 10 | 8.0 (met) | - |"), md);
        assertTrue(
                md.contains(
                        "| source task thread (ordered emitter, converter, send) | serial | ≤ 10 | 30.0 (not met) | - |"),
                md);
        assertTrue(md.contains("| decoder lanes | parallel | - | 60.0 | - |"), md);
        assertTrue(md.contains("| source PostgreSQL (its walsender, mostly) | database, serial | - | 20.0 | - |"), md);
        assertTrue(
                md.contains(
                        "| sink task thread (put: fetch, converter, assemble, schedule) | serial | ≤ 10 | - | 44.0 (not met) |"),
                md);
        assertTrue(md.contains("| apply workers (statements, in-order commits) | parallel | - | - | 100.0 |"), md);
        assertTrue(md.contains("| target PostgreSQL (apply backends) | database, parallel | - | - | 400.0 |"), md);
        // source: serial 1e6 / 30 = 33,333 caps (lanes on 8 - 3 cores: 5e6 / 60 = 83,333; walsender 50,000);
        // sink on 8 cores: target 8e6 / 400 = 20,000 (task thread 22,727; decode + workers on 7 cores 7e6 / 120 =
        // 58,333);
        // on 32 cores: the task thread's 1e6 / 44 = 22,727 (target 80,000; 31e6 / 120 = 258,333)
        assertTrue(
                md.contains("| projected ceiling, 8 cores | | | 33,333 tx/s, capped by source task thread (ordered"
                        + " emitter, converter, send) | 20,000 tx/s, capped by target PostgreSQL (apply backends) |"),
                md);
        assertTrue(
                md.contains("| projected ceiling, 32 cores | | | 33,333 tx/s, capped by source task thread (ordered"
                        + " emitter, converter, send) | 22,727 tx/s, capped by sink task thread (put: fetch,"
                        + " converter, assemble, schedule) |"),
                md);
        // the JVM's CPU that its groups leave (1.0 - 0.603 s) and the sink's GC and JIT: beside, not counted
        assertTrue(
                md.contains("| " + PipelineStages.JVM_BESIDE + " | beside, not in the ceiling | - | 397.0 | 200.0 |"),
                md);
        assertTrue(md.contains(PipelineStages.COMMIT_SEQUENCER), md);
    }

    private static CatchUpMeasurement sinkRun(int run, double taskThreadSeconds, double targetPgSeconds) {
        return new CatchUpMeasurement(
                "pglane",
                1,
                run,
                1.0,
                0.1,
                1000,
                4000,
                0.0,
                targetPgSeconds,
                1.0,
                Map.of(
                        ThreadCpu.TASK_THREAD,
                        taskThreadSeconds,
                        ThreadCpu.pglane("decode"),
                        0.02,
                        ThreadCpu.pglane("worker"),
                        0.1,
                        CatchUpTimer.JVM_REST,
                        0.2,
                        "kafka broker",
                        0.3));
    }
}
