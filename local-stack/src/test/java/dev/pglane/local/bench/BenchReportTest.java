package dev.pglane.local.bench;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.pglane.wire.Lsn;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

@Timeout(value = 10, unit = TimeUnit.SECONDS)
class BenchReportTest {
    private static final Backlog.Info BACKLOG = new Backlog.Info(
            Workload.PGBENCH, 2000, 8000, Lsn.parse("0/1000000"), Lsn.parse("0/2000000"), 7, Lsn.parse("0/1FFFF00"), 1);

    /** pglane into Kafka on 2,000 transactions: {@code readerSeconds} of reader CPU, the rest fixed. */
    private static Measurement intoKafka(double readerSeconds) {
        return new Measurement(
                SourceSystem.PGLANE_KAFKA.label(),
                1.0,
                2000,
                8000,
                0.1,
                2.0,
                Map.of(
                        ThreadCpu.pglane("reader"),
                        readerSeconds,
                        ThreadCpu.TASK_THREAD,
                        0.01,
                        ThreadCpu.pglane("lane"),
                        0.2,
                        "kafka broker",
                        1.0),
                0L);
    }

    @Test
    void theSourceStagesTableShowsPglaneIntoKafkasStagesAndCeilings() {
        BenchReport report = new BenchReport("env");
        Measurement recvLogical =
                new Measurement(SourceSystem.RECVLOGICAL.label(), 0.5, 2000, 8000, 0.1, 0.2, Map.of(), 0L);
        report.add(new BenchReport.Run(Workload.PGBENCH, 1, BACKLOG, List.of(recvLogical, intoKafka(0.03))));
        report.add(new BenchReport.Run(Workload.PGBENCH, 2, BACKLOG, List.of(recvLogical, intoKafka(0.05))));

        String md = report.markdown();

        // reader: median 0.04 s over 2,000 tx = 20 µs; task thread 5 µs; lanes 100 µs; the source server 50 µs
        assertTrue(md.contains("| stage | kind | target µs/tx | pglane source -> Kafka (JSON) |"), md);
        assertTrue(md.contains("| source reader thread (replication stream) | serial | ≤ 10 | 20.0 (not met) |"), md);
        assertTrue(
                md.contains("| source task thread (ordered emitter, converter, send) | serial | ≤ 10 | 5.0 (met) |"),
                md);
        assertTrue(md.contains("| decoder lanes | parallel | - | 100.0 |"), md);
        // the walsender's 1e6 / 50 = 20,000 caps on 8 and 32 cores (reader 50,000, task thread 200,000; lanes on
        // 8 - 2 cores 6e6 / 100 = 60,000, on 30 cores 300,000)
        assertTrue(
                md.contains("| projected ceiling, 8 cores | | | 20,000 tx/s, capped by source PostgreSQL (its"
                        + " walsender, mostly) |"),
                md);
        assertTrue(
                md.contains("| projected ceiling, 32 cores | | | 20,000 tx/s, capped by source PostgreSQL (its"
                        + " walsender, mostly) |"),
                md);
        assertFalse(md.contains("pg_recvlogical (pgoutput) -> /dev/null |\n|---|---|"), "only pglane's columns");
    }
}
