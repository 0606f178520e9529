package dev.pglane.local.bench;

import dev.pglane.local.stack.ConnectNode;
import dev.pglane.local.stack.KafkaNode;
import dev.pglane.local.stack.PostgresNode;
import dev.pglane.local.stack.RegistryNode;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * How fast the pglane sink catches up on a backlog already in Kafka (pgbench's TPC-B by default, or the independent
 * pgbench -N one), with 1, 2, 4, 8 apply workers, next to PostgreSQL's own subscriber applying the same backlog into an
 * identical target: {@code ./pglane-local bench-sink [options]} (see {@link SinkBenchOptions#USAGE}). With
 * {@code --latency-us} the sink reaches the target through a {@link DelayedTarget}.
 *
 * <p>A source and a target server tuned alike, a broker and a worker in this JVM. The source gets pgbench's tables;
 * the target a template database with the same rows. Then, at one WAL position, one slot for pglane's source
 * connector and one per run for PostgreSQL's subscriber (a subscription consumes its slot); then the backlog and a
 * fence transaction. The source connector puts the backlog into Kafka once. Each run of each configuration applies
 * it onto a fresh copy of the template and is checked against the source afterwards. Configurations alternate
 * order between runs so that none always runs first (or last).
 */
public final class SinkCatchUpBench {
    private static final Logger log = LoggerFactory.getLogger(SinkCatchUpBench.class);
    private static final String SOURCE_CONNECTOR = "bench_src";
    private static final String PGLANE_SLOT = "bench_pglane";

    private final SinkBenchOptions options;
    private final PostgresNode source;
    private final TargetDatabases targets;
    private final NativeSubscriberRun nativeRun;
    private final SinkConnectorRun sinkRun;
    private final DelayedTarget delayed;

    /** @param delayed the proxy that pglane's sink reaches the target through, or null when it connects directly */
    private SinkCatchUpBench(
            SinkBenchOptions options,
            PostgresNode source,
            PostgresNode target,
            KafkaNode kafka,
            ConnectNode connect,
            DelayedTarget delayed) {
        this.options = options;
        this.delayed = delayed;
        this.source = source;
        this.targets = new TargetDatabases(source, target);
        this.nativeRun = options.nativeSubscriber() ? new NativeSubscriberRun(source, target) : null;
        this.sinkRun = connect == null
                ? null
                : new SinkConnectorRun(
                        source,
                        target,
                        connect.rest(),
                        kafka.bootstrapServers(),
                        SOURCE_CONNECTOR,
                        sinkSettings(options, delayed));
    }

    /** The options' sink settings, a group's over them, the proxy's over both. */
    private static Map<String, String> sinkSettings(SinkBenchOptions options, DelayedTarget delayed) {
        Map<String, String> settings = new HashMap<>(options.sinkSettings());
        settings.putAll(options.groupSettings(SOURCE_CONNECTOR));
        return delayed == null ? settings : delayed.sinkSettings(settings);
    }

    public static void main(String[] args) {
        BenchLauncher.launch("bench-sink", SinkBenchOptions.USAGE, args, SinkBenchOptions::parse, (options, dir) -> {
            boolean valid = run(options, dir);
            System.out.println("report: " + options.outDir().resolve(SinkReport.MARKDOWN) + " and "
                    + options.outDir().resolve(SuiteReport.FILE));
            return valid ? 0 : 1;
        });
    }

    /** Returns false when a run failed or applied wrongly. */
    private static boolean run(SinkBenchOptions asked, Path workDir) throws Exception {
        try (PostgresNode source = BenchServers.source("bench-source", asked.version(), workDir, asked.runs() + 1);
                PostgresNode target = BenchServers.target("bench-target", asked.version(), workDir);
                KafkaNode kafka = asked.pglane() ? KafkaNode.start(workDir) : null;
                ConnectNode connect =
                        asked.pglane() ? ConnectNode.start(kafka.bootstrapServers(), asked.pluginPath()) : null;
                RegistryNode registry =
                        asked.pglane() && asked.avro() ? RegistryNode.start(workDir.resolve("registry")) : null;
                DelayedTarget delayed = asked.pglane() && asked.targetDelay() != null
                        ? DelayedTarget.start(target, asked.targetDelay())
                        : null) {
            SinkBenchOptions options = registry == null ? asked : asked.withAvroThrough(registry);
            SinkCatchUpBench bench = new SinkCatchUpBench(options, source, target, kafka, connect, delayed);
            SinkReport report = bench.measure(
                    kafka == null
                            ? null
                            : new ConnectorRun(
                                    source, connect.rest(), kafka.bootstrapServers(), options.sourceSettings()));
            System.out.println(report.write(options.outDir()));
            return !report.hasFailures();
        }
    }

    private SinkReport measure(ConnectorRun sourceStage) throws Exception {
        Backlog backlog = new Backlog(source, options.backlog());
        long begin = System.nanoTime();
        backlog.prepare(options.workload());
        targets.createTemplate(backlog, options.workload());
        log.info(
                "set-up: {}'s initial rows on the source and in the target's template, compared, in {} s",
                options.workload().label(),
                format("%.1f", (System.nanoTime() - begin) / 1e9));
        List<String> slots = new ArrayList<>();
        if (sourceStage != null) {
            slots.add(PGLANE_SLOT);
        }
        for (int run = 1; nativeRun != null && run <= options.runs(); run++) {
            slots.add(nativeSlot(run));
        }
        Backlog.Info info = backlog.create(options.workload(), slots.toArray(String[]::new));
        log.info(
                "backlog: {} transactions, {} changes, {} MB of WAL, written in {} s",
                info.transactions(),
                info.changes(),
                info.walBytes() / 1_000_000,
                format("%.1f", info.generationSeconds()));
        Measurement inKafka = null;
        if (sourceStage != null) {
            inKafka = sourceStage.measure(PGLANE_SLOT, info, SOURCE_CONNECTOR);
            log.info(
                    "source stage: the backlog is in Kafka after {} s ({} tx/s)",
                    format("%.2f", inKafka.seconds()),
                    Math.round(inKafka.transactionsPerSecond()));
        }
        SinkReport report =
                new SinkReport(delayed == null ? "sink" : DelayedTarget.STAGE, environment(), info, inKafka);
        new SinkStage(options.runs(), options.workers(), targets, nativeRun, sinkRun, "bench_sink_", options::compares)
                .measure(report, info, SinkCatchUpBench::nativeSlot);
        return report;
    }

    private static String nativeSlot(int run) {
        return "bench_native_" + run;
    }

    private String environment() {
        return format(
                "PostgreSQL %s, source and target servers alike (%s); %d cores, shared by the servers, the broker, the"
                        + " worker and this benchmark. Backlog: %s. pglane: the"
                        + " source from config-examples/source-json.json, the sink from config-examples/sink-json.json"
                        + " (%s; settings changed: source %s, sink %s%s), broker and worker in"
                        + " the benchmark's JVM. PostgreSQL's subscriber: %s.%s",
                source.serverVersion(),
                BenchServers.TUNING,
                Runtime.getRuntime().availableProcessors(),
                options.backlog().describe(options.workload()),
                options.avro()
                        ? "Avro written by the source's decoder lanes and read by the sink's decode threads, through"
                                + " Apicurio Registry"
                        : "pglane's JSON converter, JsonConverter's format with schemas",
                options.sourceSettings().isEmpty() ? "none" : options.sourceSettings(),
                options.sinkSettings().isEmpty() ? "none" : options.sinkSettings(),
                options.group().isEmpty()
                        ? ""
                        : "; a table group: it applies " + String.join(", ", options.group())
                                + " of each transaction and passes over the rest",
                NativeSubscriberRun.describe(),
                delayed == null ? "" : " " + delayed.describe());
    }

    private static String format(String pattern, Object... values) {
        return String.format(Locale.ROOT, pattern, values);
    }
}
