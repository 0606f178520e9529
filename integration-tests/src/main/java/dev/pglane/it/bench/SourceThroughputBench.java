package dev.pglane.it.bench;

import dev.pglane.it.stack.ConnectNode;
import dev.pglane.it.stack.KafkaNode;
import dev.pglane.it.stack.PostgresNode;
import java.nio.file.Path;
import java.util.ArrayList;
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
    private static final String FIRST_SLOT = "bench_recvlogical";
    private static final String SECOND_SLOT = "bench_pglane";

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
                ConnectNode connect = options.connector()
                        ? ConnectNode.start(kafka.bootstrapServers(), options.pluginPath())
                        : null) {
            Backlog backlog = new Backlog(server, options.backlog());
            backlog.prepare();
            RecvLogicalRun recvLogical = new RecvLogicalRun(server, options.pgRecvlogical());
            ConnectorRun connector = connect == null
                    ? null
                    : new ConnectorRun(server, connect.rest(), kafka.bootstrapServers(), options.connectorSettings());
            BenchReport report = new BenchReport(environment(options, server));
            int protocol = protocolVersion(options.version().major());
            for (Workload workload : options.workloads()) {
                for (int run = 1; run <= options.runs(); run++) {
                    Backlog.Info info = backlog.create(workload, FIRST_SLOT, SECOND_SLOT);
                    log.info(
                            "run {} of {}: {} transactions, {} changes, {} MB of WAL, written in {} s",
                            run,
                            workload.label(),
                            info.transactions(),
                            info.changes(),
                            info.walBytes() / 1_000_000,
                            String.format(Locale.ROOT, "%.1f", info.generationSeconds()));
                    List<Measurement> measured = new ArrayList<>();
                    // alternate which reader goes first, so neither always finds the WAL cold (or warm)
                    boolean recvFirst = connector == null || run % 2 == 1;
                    if (recvFirst) {
                        measured.add(logged(recvLogical.measure(FIRST_SLOT, info, protocol)));
                    }
                    if (connector != null) {
                        String name = "bench_" + workload.label() + "_" + run;
                        measured.add(logged(connector.measure(SECOND_SLOT, info, name)));
                        connector.deleteTopics(name);
                    }
                    if (!recvFirst) {
                        measured.add(logged(recvLogical.measure(FIRST_SLOT, info, protocol)));
                    }
                    backlog.dropSlots(FIRST_SLOT, SECOND_SLOT);
                    report.add(new BenchReport.Run(workload, run, info, measured));
                }
            }
            return report.write(options.outDir());
        }
    }

    private static Measurement logged(Measurement m) {
        log.info(
                "  {}: {} s, {} changes/s, {} tx/s, client CPU {} s, source PostgreSQL CPU {} s",
                m.system(),
                String.format(Locale.ROOT, "%.2f", m.seconds()),
                Math.round(m.changesPerSecond()),
                Math.round(m.transactionsPerSecond()),
                String.format(Locale.ROOT, "%.2f", m.clientCpuSeconds()),
                String.format(Locale.ROOT, "%.2f", m.sourceCpuSeconds()));
        return m;
    }

    /** The pgoutput protocol version the connector uses on this major: 2 on 14, 3 on 15, 4 from 16 on. */
    private static int protocolVersion(int major) {
        return major >= 16 ? 4 : major == 15 ? 3 : 2;
    }

    private static String environment(BenchOptions o, PostgresNode server) {
        return String.format(
                Locale.ROOT,
                "PostgreSQL %s (%s); %d cores;"
                        + " pgbench -i -s %d, then -c %d -j %d -t %d per run; bulk %d rows in 1,000-row transactions;"
                        + " connector: config-examples/source-json.json (JsonConverter, schemas on), Kafka and Connect"
                        + " in the benchmark's JVM (its CPU counts the broker too); each run on a fresh backlog"
                        + " after two slots at the same position (pg_copy_logical_replication_slot);"
                        + " connector settings changed: %s.",
                server.serverVersion(),
                BenchServers.TUNING,
                Runtime.getRuntime().availableProcessors(),
                o.backlog().scale(),
                o.backlog().clients(),
                o.backlog().jobs(),
                o.backlog().transactionsPerClient(),
                o.backlog().bulkRows(),
                o.connectorSettings().isEmpty() ? "none" : o.connectorSettings());
    }
}
