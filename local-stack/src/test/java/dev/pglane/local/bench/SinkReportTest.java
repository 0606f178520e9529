package dev.pglane.local.bench;

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
}
