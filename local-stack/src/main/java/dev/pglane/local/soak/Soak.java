package dev.pglane.local.soak;

import dev.pglane.local.consistency.ConsistencyWorkload;
import dev.pglane.local.consistency.InvariantChecker;
import dev.pglane.local.consistency.InvariantMonitor;
import dev.pglane.local.pipeline.CatchUp;
import dev.pglane.local.pipeline.LagSampler;
import dev.pglane.local.pipeline.Pipeline;
import dev.pglane.local.stack.LocalStack;
import dev.pglane.local.stack.PostgresNode;
import dev.pglane.local.verify.DatabaseComparator;
import java.io.PrintStream;
import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.Map;

/**
 * {@code ./pglane-local soak}: the consistency workload on a whole pipeline for a chosen time while random faults
 * hit it ({@link SoakFault}), one after another, each followed by a pause. An invariant monitor reads the target
 * throughout; at the end the sink must catch up and the target equal the source. Exit 0 only if it all held.
 */
public final class Soak {
    private static final String SCHEMA = "soak";
    private static final Duration CONNECTORS_START = Duration.ofSeconds(90);
    private static final Duration CHECK_PAUSE = Duration.ofSeconds(1);
    private static final Duration CATCH_UP = Duration.ofMinutes(10);

    private final SoakOptions options;
    private final PrintStream out;
    private final SoakSummary summary = new SoakSummary();
    private final long begin = System.nanoTime();

    public Soak(SoakOptions options, PrintStream out) {
        this.options = options;
        this.out = out;
    }

    /** Runs the soak; returns 0 if it passed. */
    public int run() throws Exception {
        try (SoakStack stack = new SoakStack(
                new LocalStack.Options(options.version(), options.workDir(), options.pluginPath(), false, false))) {
            Runtime.getRuntime().addShutdownHook(new Thread(stack::close, "pglane-soak-shutdown"));
            stack.start();
            ConsistencyWorkload workload =
                    new ConsistencyWorkload(stack.source().jdbcUrl(), SCHEMA, options.seed());
            createTables(workload, stack.source(), stack.target());
            stack.createConnectors(Map.of("apply.workers", Integer.toString(options.workers())));
            stack.rest().awaitConnectorRunning(stack.sourceConnector(), CONNECTORS_START);
            stack.rest().awaitConnectorRunning(stack.sinkConnector(), CONNECTORS_START);
            Pipeline pipeline = Pipeline.ofStack(stack.local().endpoints(), stack.rest());
            soak(stack, workload, pipeline);
            summary.compared(new DatabaseComparator(
                            stack.source().jdbcUrl(), stack.target().jdbcUrl())
                    .compare());
        }
        summary.print(out, options);
        return summary.passed() ? 0 : 1;
    }

    /** The same tables and first rows on both sides: the invariants hold from the first check. */
    private static void createTables(ConsistencyWorkload workload, PostgresNode... servers) throws SQLException {
        for (PostgresNode server : servers) {
            try (Connection connection = server.open();
                    Statement statement = connection.createStatement()) {
                for (String sql : workload.ddl()) {
                    statement.execute(sql);
                }
            }
        }
    }

    private void soak(SoakStack stack, ConsistencyWorkload workload, Pipeline pipeline) throws Exception {
        InvariantChecker checker = new InvariantChecker(stack.target().jdbcUrl(), SCHEMA);
        try (LagSampler lag = LagSampler.start(pipeline);
                InvariantMonitor monitor = InvariantMonitor.start(checker, CHECK_PAUSE)) {
            ConsistencyWorkload.Running running = workload.start(options.clients());
            new FaultSchedule(stack, summary, out, options, begin).run(running);
            try {
                summary.workload(running.stop());
            } catch (SQLException e) {
                summary.workloadFailed(e.getMessage());
                summary.workload(running.summary());
            }
            log("workload stopped: " + running.summary() + "; waiting for the sink to catch up");
            try {
                CatchUp.Result caughtUp = CatchUp.unlessFailed(pipeline, stack.rest(), stack.sourceConnector())
                        .await(CATCH_UP);
                summary.caughtUp(caughtUp.waited());
            } catch (IllegalStateException e) {
                summary.notCaughtUp(e.getMessage());
            }
            summary.maxLag(lag.maxLag());
            monitor.stop();
            summary.invariants(SoakSummary.InvariantMonitorFigures.of(monitor));
        }
    }

    private void log(String line) {
        out.println(Elapsed.since(begin) + " " + line);
    }
}
