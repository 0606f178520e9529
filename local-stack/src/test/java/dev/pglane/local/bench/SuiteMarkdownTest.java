package dev.pglane.local.bench;

import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.pglane.wire.Lsn;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

@Timeout(value = 10, unit = TimeUnit.SECONDS)
class SuiteMarkdownTest {
    private static final Backlog.Info BACKLOG = new Backlog.Info(
            Workload.PGBENCH, 1000, 4000, Lsn.parse("0/1000000"), Lsn.parse("0/2000000"), 7, Lsn.parse("0/1FFFF00"), 1);

    @Test
    void theTargetsTableJudgesEachPipelinesHeaviestSerialStage() {
        // source into Kafka, 1,000 tx: reader 6 µs, task thread 9 µs per transaction
        BenchReport source = new BenchReport("env");
        source.add(new BenchReport.Run(
                Workload.PGBENCH,
                1,
                BACKLOG,
                List.of(new Measurement(
                        SourceSystem.PGLANE_KAFKA.label(),
                        1.0,
                        1000,
                        4000,
                        0.05,
                        1.0,
                        Map.of(ThreadCpu.pglane("reader"), 0.006, ThreadCpu.TASK_THREAD, 0.009),
                        0L))));
        // the sink with 2 workers: task thread 44 µs per transaction
        SinkReport sink = new SinkReport("env", BACKLOG, null);
        sink.add(new CatchUpMeasurement(
                "pglane",
                2,
                1,
                1.0,
                0.1,
                1000,
                4000,
                0.0,
                0.3,
                1.0,
                Map.of(ThreadCpu.TASK_THREAD, 0.044, ThreadCpu.pglane("worker"), 0.1)));

        String md = new SuiteMarkdown("env", source, List.of(sink), null, null).render();

        assertTrue(
                md.contains("| pgbench | source into Kafka: each serial stage ≤ 10 µs CPU per transaction (#36)"
                        + " | heaviest: source task thread (ordered emitter, converter, send), 9.0 µs"
                        + " (pglane source -> Kafka (JSON)) | yes |"),
                md);
        assertTrue(
                md.contains("| pgbench | sink: each serial stage ≤ 10 µs CPU per transaction (#36)"
                        + " | heaviest: sink task thread (put: fetch, converter, assemble, schedule), 44.0 µs"
                        + " (pglane, 2 workers) | no |"),
                md);
    }

    @Test
    void theTargetsTableJudgesMoreWorkersNeverSlowerAndEightWorkersBehindLatencyOnTheIndependentBacklog() {
        Backlog.Info independent = new Backlog.Info(
                Workload.INDEPENDENT,
                1000,
                2000,
                Lsn.parse("0/1000000"),
                Lsn.parse("0/2000000"),
                7,
                Lsn.parse("0/1FFFF00"),
                1);
        // without latency: 1 worker 1.0 s, 2 workers 0.8 s, 4 workers 0.9 s (slower than 2)
        SinkReport sink = new SinkReport("env", independent, null);
        sink.add(independentRun(1, 1.0));
        sink.add(independentRun(2, 0.8));
        sink.add(independentRun(4, 0.9));
        // behind latency: 1 worker 4.0 s, 8 workers 1.0 s
        SinkReport latency = new SinkReport(DelayedTarget.STAGE, "env", independent, null);
        latency.add(independentRun(1, 4.0));
        latency.add(independentRun(8, 1.0));

        String md = new SuiteMarkdown("env", new BenchReport("env"), List.of(sink, latency), null, null).render();

        assertTrue(
                md.contains("| independent | sink catch-up: more workers never slower, the lowest step (2 → 4 workers)"
                        + " ≥ 1.0× (tx/s, #36) | 0.89× (0.89..0.89) | no |"),
                md);
        assertTrue(
                md.contains("| independent | sink behind a target with latency: 8 workers ≥ 3× 1 worker (tx/s)"
                        + " | 4.00× (4.00..4.00) | yes |"),
                md);
        assertTrue(md.contains("## Sink stage behind latency, independent backlog"), md);
        assertTrue(md.contains("## Targets of issues #6, #14 and #36, measured side by side in this run"), md);
    }

    private static CatchUpMeasurement independentRun(int workers, double seconds) {
        return new CatchUpMeasurement(
                "pglane", workers, 1, seconds, 0.1, 1000, 2000, 0.0, 0.3, 1.0, Map.of(ThreadCpu.pglane("worker"), 0.1));
    }
}
