package dev.pglane.local.cli;

import dev.pglane.local.pipeline.CatchUp;
import dev.pglane.local.pipeline.LagSampler;
import dev.pglane.local.pipeline.Pipeline;
import dev.pglane.local.stack.LocalStack;
import dev.pglane.local.stack.PostgresNode;
import dev.pglane.local.stack.PostgresVersion;
import dev.pglane.local.verify.ComparisonReport;
import dev.pglane.local.verify.DatabaseComparator;
import dev.pglane.local.workload.ChangeWorkload;
import dev.pglane.local.workload.Pgbench;
import dev.pglane.local.workload.WorkloadSchema;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;

/**
 * {@code ./pglane-local demo}: a whole pipeline under load, in the foreground. It starts a stack, gives the source
 * pgbench's tables and rows (the target gets them from the source connector's snapshot), creates both connectors,
 * then runs pgbench and the mixed {@link ChangeWorkload} on the source for the given time, while the snapshot runs,
 * waits until the sink has caught up, compares the databases and prints what went through and how fast. Exit 0 only
 * when they are equal.
 */
final class Demo {
    private static final String WORKLOAD_SCHEMA = "public";
    private static final int PGBENCH_SCALE = 1;
    private static final int CLIENTS = 2;
    private static final Duration CONNECTORS_START = Duration.ofSeconds(90);
    private static final Duration MIN_CATCH_UP = Duration.ofSeconds(120);

    /**
     * @param duration how long the workloads run
     * @param workers the sink's {@code apply.workers}
     * @param pgbench the pgbench program; without it the mixed workload runs alone, with twice the clients
     */
    /** @param avro the connectors write and read Avro through a schema registry, instead of JSON */
    record Options(
            PostgresVersion version,
            Path workDir,
            Path pluginPath,
            Duration duration,
            int workers,
            Path pgbench,
            boolean avro) {}

    private final Options options;
    private final DemoReport report;

    Demo(Options options) {
        this.options = options;
        this.report = new DemoReport(System.out);
    }

    int run() throws Exception {
        try (LocalStack stack = new LocalStack(new LocalStack.Options(
                options.version(), options.workDir(), options.pluginPath(), false, options.avro()))) {
            Runtime.getRuntime().addShutdownHook(new Thread(stack::close, "pglane-demo-shutdown"));
            stack.start();
            boolean pgbench = Pgbench.isInstalled(options.pgbench());
            ChangeWorkload mixed = new ChangeWorkload(stack.source().jdbcUrl(), new WorkloadSchema(WORKLOAD_SCHEMA));
            prepare(stack, pgbench, mixed);
            if (!startConnectors(stack)) {
                return PglaneLocal.EXIT_FAILURE;
            }
            Pipeline pipeline = Pipeline.ofStack(stack.endpoints(), stack.rest());
            report.started(options, pgbench);
            Instant begin = Instant.now();
            CatchUp.Result caughtUp;
            try (LagSampler lag = LagSampler.start(pipeline)) {
                runWorkloads(stack.source(), pgbench, mixed);
                Instant workloadEnd = Instant.now();
                caughtUp = awaitCatchUp(stack, pipeline);
                if (caughtUp == null) {
                    return PglaneLocal.EXIT_FAILURE;
                }
                report.caughtUp(caughtUp, begin, workloadEnd, lag);
            }
            ComparisonReport comparison = new DatabaseComparator(
                            stack.source().jdbcUrl(), stack.target().jdbcUrl())
                    .compare();
            report.verified(comparison);
            return comparison.isEqual() ? PglaneLocal.EXIT_OK : PglaneLocal.EXIT_FAILURE;
        }
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
        ChangeWorkload.Result mixedRun = mixed.runFor(pgbench ? CLIENTS : 2 * CLIENTS, options.duration());
        try {
            report.workloads(pgbenchRun.join(), mixedRun);
        } catch (CompletionException e) {
            throw (Exception) e.getCause();
        }
    }

    private long runPgbench(PostgresNode source) {
        try {
            return Pgbench.of(options.pgbench(), source).runFor(CLIENTS, CLIENTS, options.duration());
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
