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
}
