package dev.pglane.local.bench;

import dev.pglane.local.pipeline.ProgressTable;
import dev.pglane.local.stack.ConnectRestClient;
import dev.pglane.local.stack.PostgresNode;
import dev.pglane.local.verify.ComparisonReport;
import java.sql.Connection;
import java.time.Duration;
import java.util.List;
import java.util.Map;

/**
 * The whole pipeline, source → Kafka → sink, under pgbench's load: the source reset to the target template's state,
 * a slot at that point, both connectors created and warmed up (a few seconds of the load, applied, so that every
 * topic exists, the sink reads it and the JIT has compiled the hot paths: the figures are of the steady state, not of
 * the connectors' start), then pgbench with the backlog's clients for a fixed time while the sink's lag is read
 * throughout; then a fence, and the wait until the sink has applied it. The target is compared
 * with the source afterwards: a run that differs fails.
 */
final class EndToEndRun {
    private static final String PREFIX = "bench_e2e";
    private static final Duration WARM_UP = Duration.ofSeconds(5);

    private final PostgresNode target;
    private final ConnectRestClient rest;
    private final Backlog backlog;
    private final TargetDatabases targets;
    private final ConnectorRun sourceConnector;
    private final SinkConnectorRun sinkConnector;
    private final CpuMeter cpu;
    private final BenchFormat format;

    /** @param sourceSettings and {@code sinkSettings}: changes to the example configs, the format's included */
    EndToEndRun(
            BenchFormat format,
            PostgresNode target,
            ConnectRestClient rest,
            String bootstrapServers,
            Backlog backlog,
            TargetDatabases targets,
            Map<String, String> sourceSettings,
            Map<String, String> sinkSettings) {
        this.target = target;
        this.rest = rest;
        this.backlog = backlog;
        this.targets = targets;
        PostgresNode source = targets.source();
        this.sourceConnector = new ConnectorRun(source, rest, bootstrapServers, sourceSettings);
        this.sinkConnector = new SinkConnectorRun(source, target, rest, bootstrapServers, PREFIX, sinkSettings);
        this.cpu = new CpuMeter(source, target);
        this.format = format;
    }

    EndToEndMeasurement measure(Duration load, int workers, int run) throws Exception {
        backlog.reset(Workload.PGBENCH);
        String database = "e2e_run" + run;
        String slot = PREFIX + "_" + run;
        String sinkName = PREFIX + "_sink_" + run;
        targets.createFromTemplate(database);
        backlog.createSlot(slot);
        try {
            rest.putConnectorConfig(PREFIX, sourceConnector.config(slot, PREFIX));
            Map<String, String> sinkConfig = sinkConnector.config(database, workers, sinkName);
            rest.putConnectorConfig(sinkName, sinkConfig);
            drain(database, sinkConfig, sinkName, workers, run, backlog.load(WARM_UP));
            CpuMeter.Reading before = cpu.read();
            long begin = System.nanoTime();
            long transactions;
            List<LagSummary.Sample> samples;
            try (LagRecorder lag = LagRecorder.start(
                    ProgressTable.open(target.jdbcUrlOf(database), sinkConfig.get("progress.table"), sinkName))) {
                transactions = backlog.load(load);
                samples = lag.samples();
            }
            double loadSeconds = (System.nanoTime() - begin) / 1e9;
            double drainSeconds = drain(database, sinkConfig, sinkName, workers, run, transactions);
            CpuMeter.Reading used = cpu.read().since(before);
            ComparisonReport comparison = targets.compare(database);
            if (!comparison.isEqual()) {
                throw new IllegalStateException(
                        "end to end, run " + run + ": the target differs from the source:\n" + comparison.summary());
            }
            return new EndToEndMeasurement(
                    format,
                    workers,
                    run,
                    loadSeconds,
                    transactions,
                    drainSeconds,
                    LagSummary.of(samples, loadSeconds),
                    used);
        } finally {
            sinkConnector.remove(sinkName);
            sourceConnector.remove(PREFIX, slot);
            sourceConnector.deleteTopics(PREFIX);
            backlog.dropSlots(slot);
            targets.drop(database);
        }
    }

    /** Writes a fence and waits until the sink has applied it; returns the seconds that took. */
    private double drain(
            String database, Map<String, String> sinkConfig, String sinkName, int workers, int run, long transactions)
            throws Exception {
        Backlog.Fence fence = backlog.writeFence();
        Backlog.Info remaining = new Backlog.Info(
                Workload.PGBENCH, transactions, 4 * transactions, null, null, fence.xid(), fence.bound(), 0);
        try (Connection connection = target.open(database)) {
            return new CatchUpTimer(connection, SinkConnectorRun.positionQuery(sinkConfig), cpu)
                    .time(
                            CatchUpConfiguration.pglane(workers),
                            run,
                            remaining,
                            () -> {},
                            () -> sinkConnector.checkRunning(sinkName))
                    .seconds();
        }
    }
}
