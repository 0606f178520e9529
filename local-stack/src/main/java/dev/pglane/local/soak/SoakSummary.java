package dev.pglane.local.soak;

import dev.pglane.local.consistency.ConsistencyWorkload;
import dev.pglane.local.consistency.InvariantMonitor;
import dev.pglane.local.verify.ComparisonReport;
import java.io.PrintStream;
import java.time.Duration;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;

/**
 * What a soak run went through and whether the pipeline kept its promise: the target equals the source, no
 * invariant was seen broken while it ran, and no task failed for good.
 */
final class SoakSummary {
    private final Map<SoakFault, Integer> faults = new EnumMap<>(SoakFault.class);
    private final List<String> taskFailures = new ArrayList<>();
    private ConsistencyWorkload.Summary workload;
    private String workloadFailure;
    private Duration maxLag = Duration.ZERO;
    private Duration catchUp;
    private String catchUpFailure;
    private InvariantMonitorFigures invariants;
    private ComparisonReport comparison;

    /** The monitor's figures, copied when it stopped. */
    record InvariantMonitorFigures(
            long checks, long states, long unavailable, long violating, List<String> violations) {
        static InvariantMonitorFigures of(InvariantMonitor monitor) {
            return new InvariantMonitorFigures(
                    monitor.checks(),
                    monitor.distinctStates(),
                    monitor.unavailableChecks(),
                    monitor.violatingChecks(),
                    monitor.violations());
        }
    }

    void injected(SoakFault fault) {
        faults.merge(fault, 1, Integer::sum);
    }

    void taskFailed(String what) {
        taskFailures.add(what);
    }

    void workload(ConsistencyWorkload.Summary summary) {
        this.workload = summary;
    }

    void workloadFailed(String why) {
        this.workloadFailure = why;
    }

    void maxLag(Duration lag) {
        this.maxLag = lag;
    }

    void caughtUp(Duration waited) {
        this.catchUp = waited;
    }

    void notCaughtUp(String why) {
        this.catchUpFailure = why;
    }

    void invariants(InvariantMonitorFigures figures) {
        this.invariants = figures;
    }

    void compared(ComparisonReport report) {
        this.comparison = report;
    }

    int faultCount() {
        return faults.values().stream().mapToInt(Integer::intValue).sum();
    }

    boolean passed() {
        return workloadFailure == null
                && catchUpFailure == null
                && taskFailures.isEmpty()
                && invariants != null
                && invariants.violating() == 0
                && comparison != null
                && comparison.isEqual();
    }

    void print(PrintStream out, SoakOptions options) {
        out.println();
        out.println("== pglane soak summary ==");
        out.printf(
                "PostgreSQL %s, %d apply workers, %d workload sessions, seed %d, ran %s%n",
                options.version(), options.workers(), options.clients(), options.seed(), options.duration());
        out.println("workload:   " + (workload == null ? "-" : workload)
                + (workloadFailure == null ? "" : "; FAILED: " + workloadFailure));
        out.println("faults:     " + faultCount() + " injected" + (faults.isEmpty() ? "" : " " + faults));
        out.println("task failures (needed a manual restart): "
                + (taskFailures.isEmpty() ? "none" : taskFailures.size() + "\n  " + String.join("\n  ", taskFailures)));
        out.printf(
                "max lag:    %.1f s (age of the last applied source commit, sampled every 0.5 s)%n",
                maxLag.toMillis() / 1000.0);
        out.println("catch-up after the workload: "
                + (catchUpFailure != null
                        ? "FAILED: " + catchUpFailure
                        : String.format("%.1f s", catchUp.toMillis() / 1000.0)));
        if (invariants != null) {
            out.println("invariants: " + invariants.checks() + " checks on the target saw " + invariants.states()
                    + " distinct states, " + invariants.unavailable() + " could not connect, "
                    + invariants.violating() + " found violations"
                    + (invariants.violations().isEmpty()
                            ? ""
                            : ":\n  " + String.join("\n  ", invariants.violations())));
        }
        out.println("verify:     " + (comparison == null ? "not run" : comparison.summary()));
        out.println("result:     " + (passed() ? "PASSED" : "FAILED"));
    }
}
