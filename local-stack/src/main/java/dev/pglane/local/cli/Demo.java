package dev.pglane.local.cli;

import dev.pglane.local.pipeline.CatchUp;
import dev.pglane.local.pipeline.LagSampler;
import dev.pglane.local.pipeline.Pipeline;
import dev.pglane.local.stack.LocalStack;
import dev.pglane.local.stack.PostgresNode;
import dev.pglane.local.stack.PostgresVersion;
import dev.pglane.local.verify.ComparisonReport;
import dev.pglane.local.verify.DatabaseComparator;
import dev.pglane.local.watch.ConnectorMetricsReader;
import dev.pglane.local.watch.ViewOutput;
import dev.pglane.local.watch.Watcher;
import dev.pglane.local.workload.ChangeWorkload;
import dev.pglane.local.workload.Pgbench;
import dev.pglane.local.workload.WorkloadSchema;
import java.lang.management.ManagementFactory;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;

/**
 * {@code ./pglane-local demo}: a whole pipeline under load, in the foreground. It starts a stack, gives the source
 * pgbench's tables and rows (the target gets them from the source connector's snapshot), creates both connectors,
 * then runs pgbench and the mixed {@link ChangeWorkload} on the source for the given time, at a paced rate (or as fast
 * as they can), while the snapshot runs, waits until the sink has caught up, compares the databases and prints what
 * went through, how fast, the lag's percentiles and when the snapshot's rows were all on the target. Exit 0 only when
 * they are equal.
 */
final class Demo {
    private static final String WORKLOAD_SCHEMA = "public";
    private static final int PGBENCH_SCALE = 1;
    private static final int CLIENTS = 2;
    private static final Duration CONNECTORS_START = Duration.ofSeconds(90);
    private static final Duration MIN_CATCH_UP = Duration.ofSeconds(120);
    /** How long after the catch-up the sink's snapshot-complete is waited for, when the last chunk came last. */
    private static final Duration SNAPSHOT_REPORT_GRACE = Duration.ofSeconds(5);
    /** pgbench's share of a paced rate; the mixed workload, whose transactions write several tables, has the rest. */
    private static final double PGBENCH_SHARE = 0.75;

    /**
     * @param duration how long the workloads run
     * @param workers the sink's {@code apply.workers}
     * @param pgbench the pgbench program; without it the mixed workload runs alone, with twice the clients
     * @param avro the connectors write and read Avro through a schema registry, instead of JSON
     * @param rate the workloads' transactions a second together; 0: as fast as they can
     * @param log where the stack's logs go (the script sends this JVM's output there), named to the reader once
     */
    record Options(
            PostgresVersion version,
            Path workDir,
            Path pluginPath,
            Duration duration,
            int workers,
            Path pgbench,
            boolean avro,
            int rate,
            Path log) {
        /** pgbench's transactions a second, 0 when unthrottled. */
        int pgbenchRate() {
            return (int) Math.round(rate * PGBENCH_SHARE);
        }

        /** The mixed workload's transactions a second, all of {@link #rate} without pgbench; 0 when unthrottled. */
        int mixedRate(boolean pgbench) {
            return pgbench ? rate - pgbenchRate() : rate;
        }
    }

    private final Options options;
    private final ViewOutput console;
    private final DemoReport report;
    private volatile boolean finished;
    private volatile boolean stopping;
    private volatile Watcher watcher;

    /** @param console the person's screen: the report's lines and the live view */
    Demo(Options options, ViewOutput console) {
        this.options = options;
        this.console = console;
        this.report = new DemoReport(console);
    }

    int run() throws Exception {
        try (LocalStack stack = new LocalStack(new LocalStack.Options(
                options.version(), options.workDir(), options.pluginPath(), false, options.avro()))) {
            Runtime.getRuntime().addShutdownHook(new Thread(() -> stopEarly(stack), "pglane-demo-shutdown"));
            report.starting(options, options.log());
            Instant stackBegin = Instant.now();
            stack.start();
            report.stackUp(Duration.between(stackBegin, Instant.now()));
            boolean pgbench = Pgbench.isInstalled(options.pgbench());
            ChangeWorkload mixed = new ChangeWorkload(stack.source().jdbcUrl(), new WorkloadSchema(WORKLOAD_SCHEMA));
            prepare(stack, pgbench, mixed);
            Instant connectorsStart = Instant.now();
            if (!startConnectors(stack)) {
                return PglaneLocal.EXIT_FAILURE;
            }
            Pipeline pipeline = Pipeline.ofStack(stack.endpoints(), stack.rest());
            report.started(options, pgbench);
            Instant begin = Instant.now();
            CatchUp.Result caughtUp;
            ConnectorMetricsReader metrics = metrics(stack);
            try (SnapshotClock snapshot = SnapshotClock.start(metrics, connectorsStart);
                    LagSampler lag = LagSampler.start(pipeline, begin);
                    Watcher view = watch(metrics, begin)) {
                runWorkloads(stack.source(), pgbench, mixed);
                lag.stopCounting();
                Instant workloadEnd = Instant.now();
                view.status(() -> "catching up, " + elapsed(workloadEnd) + " since the workload ended");
                caughtUp = awaitCatchUp(stack, pipeline);
                if (caughtUp == null) {
                    return PglaneLocal.EXIT_FAILURE;
                }
                view.status(() -> "caught up");
                view.close();
                report.caughtUp(caughtUp, begin, workloadEnd, lag);
                report.snapshot(snapshot.took(SNAPSHOT_REPORT_GRACE));
            }
            ComparisonReport comparison = new DatabaseComparator(
                            stack.source().jdbcUrl(), stack.target().jdbcUrl())
                    .compare();
            report.verified(comparison);
            return comparison.isEqual() ? PglaneLocal.EXIT_OK : PglaneLocal.EXIT_FAILURE;
        } catch (Exception e) {
            if (!stopping) {
                report.failed("the demo failed (the trace is in the log)", e);
            }
            throw e;
        } finally {
            finished = true;
        }
    }

    /** The connectors' metrics in this JVM (the worker runs here). */
    private ConnectorMetricsReader metrics(LocalStack stack) {
        return new ConnectorMetricsReader(
                ManagementFactory.getPlatformMBeanServer(),
                stack.endpoints().sourceConnector(),
                stack.endpoints().sinkConnector(),
                options.workers());
    }

    /** The live view, until the sink has caught up. */
    private Watcher watch(ConnectorMetricsReader metrics, Instant begin) {
        String total = options.duration().toSeconds() + " s";
        watcher = Watcher.start(metrics, console, () -> "workload running, " + elapsed(begin) + " of " + total);
        return watcher;
    }

    /** Ctrl-C (or any other end of the JVM before the demo has finished): say so, and stop every part in order. */
    private void stopEarly(LocalStack stack) {
        if (finished) {
            return;
        }
        stopping = true;
        Watcher view = watcher;
        if (view != null) {
            view.close();
        }
        report.interrupted();
        stack.close();
        report.stopped(options.log());
    }

    private static String elapsed(Instant since) {
        return String.format(
                Locale.ROOT, "%d s", Duration.between(since, Instant.now()).toSeconds());
    }

    /**
     * pgbench's tables and rows and the mixed workload's tables, on the source only: the sink creates them on the
     * target (auto.create) from the first record of each, and the snapshot brings the rows already there.
     */
    private void prepare(LocalStack stack, boolean pgbench, ChangeWorkload mixed) throws Exception {
        if (pgbench) {
            Pgbench.of(options.pgbench(), stack.source()).init(PGBENCH_SCALE);
        }
        mixed.createTables();
    }

    private boolean startConnectors(LocalStack stack) {
        stack.createConnectors(Map.of("apply.workers", Integer.toString(options.workers()), "auto.create", "true"));
        for (String name : new String[] {
            stack.endpoints().sourceConnector(), stack.endpoints().sinkConnector()
        }) {
            try {
                stack.rest().awaitConnectorRunning(name, CONNECTORS_START);
            } catch (IllegalStateException e) {
                report.failed("the connectors did not start", e);
                return false;
            }
        }
        return true;
    }

    /** pgbench and the mixed workload at the same time, both for the demo's duration. */
    private void runWorkloads(PostgresNode source, boolean pgbench, ChangeWorkload mixed) throws Exception {
        CompletableFuture<Long> pgbenchRun = pgbench
                ? CompletableFuture.supplyAsync(() -> runPgbench(source))
                : CompletableFuture.completedFuture(0L);
        ChangeWorkload.Result mixedRun =
                mixed.runFor(pgbench ? CLIENTS : 2 * CLIENTS, options.duration(), options.mixedRate(pgbench));
        try {
            report.workloads(pgbenchRun.join(), mixedRun);
        } catch (CompletionException e) {
            throw (Exception) e.getCause();
        }
    }

    private long runPgbench(PostgresNode source) {
        try {
            Pgbench pgbench = Pgbench.of(options.pgbench(), source);
            return options.pgbenchRate() > 0
                    ? pgbench.runAtRate(CLIENTS, CLIENTS, options.pgbenchRate(), options.duration())
                    : pgbench.runFor(CLIENTS, CLIENTS, options.duration());
        } catch (Exception e) {
            throw new CompletionException(e);
        }
    }

    private CatchUp.Result awaitCatchUp(LocalStack stack, Pipeline pipeline) throws Exception {
        Duration timeout = options.duration().multipliedBy(4);
        if (timeout.compareTo(MIN_CATCH_UP) < 0) {
            timeout = MIN_CATCH_UP;
        }
        try {
            return CatchUp.unlessFailed(
                            pipeline, stack.rest(), stack.endpoints().sourceConnector())
                    .await(timeout);
        } catch (IllegalStateException e) {
            report.failed("the sink did not catch up", e);
            return null;
        }
    }
}
