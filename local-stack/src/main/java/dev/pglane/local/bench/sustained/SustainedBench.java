package dev.pglane.local.bench.sustained;

import dev.pglane.local.bench.BenchLauncher;
import dev.pglane.local.bench.BenchServers;
import dev.pglane.local.stack.ConnectNode;
import dev.pglane.local.stack.KafkaNode;
import dev.pglane.local.stack.PostgresNode;
import dev.pglane.local.stack.RegistryNode;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Locale;
import java.util.stream.Collectors;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The sustained-rate stage: {@code ./pglane-local bench-sustained [options]} (see {@link SustainedOptions#USAGE}).
 * Every system replicates the same pgbench database between the same two servers while a paced pgbench load steps up,
 * and the same probe ({@link LagProbe}) times each system's lag; the broker, the worker and the registry run in this
 * JVM, as in the other benchmarks. Each run takes the systems in turn, in reverse order every other run, so that none
 * always runs first.
 */
public final class SustainedBench {
    private static final Logger log = LoggerFactory.getLogger(SustainedBench.class);

    private SustainedBench() {}

    public static void main(String[] args) {
        BenchLauncher.launch(
                "bench-sustained", SustainedOptions.USAGE, args, SustainedOptions::parse, (options, workDir) -> {
                    SustainedReport report = run(options, workDir);
                    System.out.println(report.write(options.outDir()));
                    System.out.println("report: " + options.outDir().resolve(SustainedReport.MARKDOWN_FILE) + ", "
                            + options.outDir().resolve(SustainedReport.JSON_FILE) + " and the sustained section of "
                            + options.outDir().resolve("report.json"));
                    return report.hasFailures() ? 1 : 0;
                });
    }

    private static SustainedReport run(SustainedOptions options, Path workDir) throws Exception {
        Path[] thirdParty = options.systems().contains(SustainedSystem.DEBEZIUM)
                ? new Path[] {thirdPartyPlugins(options)}
                : new Path[0];
        try (PostgresNode source = BenchServers.source("sustained-source", options.version(), workDir, 4);
                PostgresNode target = BenchServers.target("sustained-target", options.version(), workDir);
                KafkaNode kafka = options.needsConnect() ? KafkaNode.start(workDir) : null;
                ConnectNode connect = options.needsConnect()
                        ? ConnectNode.start(kafka.bootstrapServers(), options.pluginPath(), thirdParty)
                        : null;
                ConnectNode exactlyOnce = options.needsExactlyOnceWorker()
                        ? ConnectNode.startExactlyOnce(kafka.bootstrapServers(), options.pluginPath())
                        : null;
                RegistryNode registry =
                        options.needsRegistry() ? RegistryNode.start(workDir.resolve("registry")) : null) {
            SustainedDatabase database = new SustainedDatabase(source, target, options.pgbench(), options.scale());
            database.prepare();
            SteppedLoad load = new SteppedLoad(
                    options,
                    source,
                    target,
                    database,
                    new Replications(source, target, kafka, connect, exactlyOnce, registry),
                    BoundedRule.DEFAULT);
            SustainedReport report = new SustainedReport(
                    environment(options, source),
                    BoundedRule.DEFAULT,
                    options.systems(),
                    options.rates(),
                    options.step().toSeconds());
            for (int run = 1; run <= options.runs(); run++) {
                List<SustainedSystem> order = new ArrayList<>(options.systems());
                if (run % 2 == 0) {
                    Collections.reverse(order);
                }
                for (SustainedSystem system : order) {
                    try {
                        report.add(load.measure(system, run));
                    } catch (Exception e) {
                        log.error("{}, run {} failed", system.label(), run, e);
                        report.fail(system, run, String.valueOf(e.getMessage()));
                    }
                }
            }
            return report;
        }
    }

    private static Path thirdPartyPlugins(SustainedOptions options) {
        Path dir = options.thirdPartyPluginPath();
        if (!Files.isDirectory(dir)) {
            throw new IllegalStateException(dir + " is missing: local-stack's build unpacks Debezium's plugins there"
                    + " (mvn -pl local-stack -am install -DskipTests)");
        }
        return dir;
    }

    private static String environment(SustainedOptions options, PostgresNode source) {
        return String.format(
                Locale.ROOT,
                "PostgreSQL %s, source and target servers alike (%s); %d cores, shared by the servers, pgbench, the"
                        + " broker, the worker and this benchmark. Load: pgbench's TPC-B (-s %d -c %d -j %d, --rate"
                        + " steps %s tx/s of %d s each after a %d s warm-up; pgbench_history given a bigserial key so"
                        + " that every system can key it), %d run(s)%s. Lag: a probe row committed on the source every"
                        + " %d ms, in the same transaction as a marked row of pgbench_history (the table the load adds"
                        + " most rows to), timed by the benchmark's clock from its commit's return until a poll of the"
                        + " target (every %d ms) sees both; the same probe for every system. Systems: %s. pglane:"
                        + " source and"
                        + " sink from config-examples/ as shipped (Avro: in the connectors' own threads through"
                        + " Apicurio Registry); the subscriber: CREATE SUBSCRIPTION ... WITH (copy_data = false),"
                        + " other options at their defaults; Debezium: the PostgreSQL connector %s (pgoutput,"
                        + " snapshot.mode no_data) and the JDBC sink %s (insert.mode upsert, delete.enabled true,"
                        + " primary.key.mode record_key), Kafka's JsonConverter with schemas between them, both in"
                        + " the worker with their defaults otherwise. pglane and the subscriber apply in commit order,"
                        + " so a visible probe means every earlier transaction is applied; Debezium's sink applies each"
                        + " table's topic on its own, so its probe lag is the later of the probe table's and"
                        + " pgbench_history's, and the load's other tables can be further behind (the checks say how"
                        + " long after the probe's last row each target equalled the source).",
                source.serverVersion(),
                BenchServers.TUNING,
                Runtime.getRuntime().availableProcessors(),
                options.scale(),
                options.clients(),
                options.jobs(),
                options.rates().stream().map(String::valueOf).collect(Collectors.joining(", ")),
                options.step().toSeconds(),
                options.warmUp().toSeconds(),
                options.runs(),
                options.quick() ? " (--quick: a smoke run, not a measurement)" : "",
                LagProbe.WRITE_INTERVAL.toMillis(),
                LagProbe.POLL_INTERVAL.toMillis(),
                options.systems().stream().map(SustainedSystem::label).collect(Collectors.joining(", ")),
                DebeziumReplication.SOURCE_RELEASE,
                DebeziumReplication.SINK_RELEASE);
    }
}
