package dev.pglane.local.bench;

import dev.pglane.local.stack.ConnectNode;
import dev.pglane.local.stack.KafkaNode;
import dev.pglane.local.stack.PostgresNode;
import dev.pglane.local.stack.RegistryNode;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * How fast the pglane source connector catches up on a backlog, next to {@code pg_recvlogical} on the same
 * backlog: {@code ./pglane-local bench-source [options]} (see {@link BenchOptions#USAGE}).
 *
 * <p>It starts a source PostgreSQL tuned like the reference figures' (shared_buffers 512MB, synchronous_commit off,
 * autovacuum off), a KRaft broker and a Connect worker in this JVM. Each run creates two slots at the same
 * position, writes a fresh backlog after them, then lets each reader catch up from its own slot (alternating which
 * goes first), and records wall time and CPU. The summary goes to stdout and {@code source-report.{json,md}}.
 */
public final class SourceThroughputBench {
    private static final Logger log = LoggerFactory.getLogger(SourceThroughputBench.class);

    private SourceThroughputBench() {}

    public static void main(String[] args) {
        BenchLauncher.launch("bench-source", BenchOptions.USAGE, args, BenchOptions::parse, (options, workDir) -> {
            System.out.println(run(options, workDir));
            System.out.println("report: " + options.outDir().resolve("source-report.json") + " and .md");
            return 0;
        });
    }

    private static String run(BenchOptions options, Path workDir) throws Exception {
        try (PostgresNode server = BenchServers.source("bench-source", options.version(), workDir, 2);
                KafkaNode kafka = options.connector() ? KafkaNode.start(workDir) : null;
                ConnectNode connect =
                        options.connector() ? ConnectNode.start(kafka.bootstrapServers(), options.pluginPath()) : null;
                RegistryNode registry = options.connector() && BenchFormat.anyAvro(options.formats())
                        ? RegistryNode.start(workDir.resolve("registry"))
                        : null) {
            Backlog backlog = new Backlog(server, options.backlog());
            backlog.prepare(options.workloads().get(0));
            BenchReport report = new BenchReport(environment(options, server));
            for (Workload workload : options.workloads()) {
                if (backlog.scaleChanges(workload)) {
                    backlog.reset(workload); // the independent backlog's pgbench tables are larger
                }
                SourceStage stage = stage(options, server, kafka, connect, registry, workload);
                for (int run = 1; run <= options.runs(); run++) {
                    String[] slots = stage.slots(run).toArray(String[]::new);
                    Backlog.Info info = backlog.create(workload, slots);
                    log.info(
                            "run {} of {}: {} transactions, {} changes, {} MB of WAL, written in {} s",
                            run,
                            workload.label(),
                            info.transactions(),
                            info.changes(),
                            info.walBytes() / 1_000_000,
                            String.format(Locale.ROOT, "%.1f", info.generationSeconds()));
                    List<Measurement> measured = stage.measure(info, run);
                    backlog.dropSlots(slots);
                    report.add(new BenchReport.Run(workload, run, info, measured));
                }
            }
            return report.write(options.outDir());
        }
    }

    /**
     * pg_recvlogical, and the connector into Kafka unless --no-connector, once per format; each run's topics deleted
     * after it.
     */
    private static SourceStage stage(
            BenchOptions options,
            PostgresNode server,
            KafkaNode kafka,
            ConnectNode connect,
            RegistryNode registry,
            Workload workload) {
        RecvLogicalRun recvLogical = new RecvLogicalRun(server, options.pgRecvlogical());
        int protocol = protocolVersion(options.version().major());
        SourceStage stage = new SourceStage()
                .with(SourceSystem.RECVLOGICAL, (slot, info, run) -> recvLogical.measure(slot, info, protocol));
        if (connect == null) {
            return stage;
        }
        for (BenchFormat format : options.formats()) {
            ConnectorRun connector = new ConnectorRun(
                    server,
                    connect.rest(),
                    kafka.bootstrapServers(),
                    format.settings(options.connectorSettings(), registry));
            stage.with(format.sourceSystem(), (slot, info, run) -> {
                String name = "bench_" + workload.label() + "_" + format.option() + "_" + run;
                Measurement measured = connector.measure(slot, info, name);
                connector.deleteTopics(name);
                return measured;
            });
        }
        return stage;
    }

    /** The pgoutput protocol version the connector uses on this major: 2 on 14, 3 on 15, 4 from 16 on. */
    static int protocolVersion(int major) {
        return major >= 16 ? 4 : major == 15 ? 3 : 2;
    }

    private static String environment(BenchOptions o, PostgresNode server) {
        return String.format(
                Locale.ROOT,
                "PostgreSQL %s (%s); %d cores; per run: %s;"
                        + " connector: config-examples/source-json.json (pglane's JSON converter, schemas on), or with"
                        + " --format avro Avro written in its decoder lanes through Apicurio Registry; Kafka and Connect"
                        + " in the benchmark's JVM (its CPU counts the broker too); each run on a fresh backlog"
                        + " after two slots at the same position (pg_copy_logical_replication_slot);"
                        + " connector settings changed: %s.",
                server.serverVersion(),
                BenchServers.TUNING,
                Runtime.getRuntime().availableProcessors(),
                String.join(
                        "; ", o.workloads().stream().map(o.backlog()::describe).toList()),
                o.connectorSettings().isEmpty() ? "none" : o.connectorSettings());
    }
}
