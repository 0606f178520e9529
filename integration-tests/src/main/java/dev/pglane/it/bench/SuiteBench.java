package dev.pglane.it.bench;

import dev.pglane.it.bench.snapshot.SnapshotConnectors;
import dev.pglane.it.bench.snapshot.SnapshotReport;
import dev.pglane.it.bench.snapshot.SnapshotStage;
import dev.pglane.it.fault.TcpProxy;
import dev.pglane.it.stack.ConnectNode;
import dev.pglane.it.stack.KafkaNode;
import dev.pglane.it.stack.PostgresNode;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.stream.IntStream;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The whole benchmark suite of issue #6 in one run: {@code ./pglane-local bench [options]} (see
 * {@link SuiteOptions#USAGE}).
 *
 * <p>A source and a target server tuned alike, a broker and a worker in this JVM. Per backlog (pgbench, then bulk):
 * every slot of every run and system is created at one WAL position, then the backlog and its fence are written
 * once. The source stage lets each reader catch up from its own slot, run after run ({@link SourceStage}); pglane's
 * first run into Kafka leaves its topics for the sink stage, which applies them onto fresh copies of the target's
 * template beside PostgreSQL's subscriber ({@link SinkStage}), then, on pgbench's backlog, once more onto a target
 * behind a delaying proxy with 1 and 8 workers (the latency stage). Before the second backlog the source is reset to
 * the template's state. Then the end-to-end stage: pgbench's load through the whole pipeline ({@link EndToEndRun}).
 * Last, the snapshot stage, on a database of its own on the source, so that it changes nothing the other stages read
 * ({@link SnapshotStage}).
 * Writes {@code report.json} (every run of every stage) and {@code report.md}.
 */
public final class SuiteBench {
    private static final Logger log = LoggerFactory.getLogger(SuiteBench.class);
    static final String MARKDOWN = "report.md";
    static final String LATENCY_STAGE = "sink_latency";
    static final List<Integer> LATENCY_WORKERS = List.of(1, 8);

    private final SuiteOptions options;
    private final PostgresNode source;
    private final PostgresNode target;
    private final KafkaNode kafka;
    private final ConnectNode connect;
    private final Path workDir;

    private SuiteBench(
            SuiteOptions options,
            PostgresNode source,
            PostgresNode target,
            KafkaNode kafka,
            ConnectNode connect,
            Path workDir) {
        this.options = options;
        this.source = source;
        this.target = target;
        this.kafka = kafka;
        this.connect = connect;
        this.workDir = workDir;
    }

    public static void main(String[] args) {
        BenchLauncher.launch("bench", SuiteOptions.USAGE, args, SuiteOptions::parse, (options, dir) -> {
            boolean valid = run(options, dir);
            System.out.println("report: " + options.outDir().resolve(MARKDOWN) + " and "
                    + options.outDir().resolve(SuiteReport.FILE));
            return valid ? 0 : 1;
        });
    }

    /** Returns false when a sink or end-to-end run failed or applied wrongly; a failed source run throws. */
    private static boolean run(SuiteOptions options, Path workDir) throws Exception {
        // a report of one run: entries of an earlier run must not mix with this one's
        Files.deleteIfExists(options.outDir().resolve(SuiteReport.FILE));
        int slots = options.runs() * (SourceSystem.values().length + 1);
        try (PostgresNode source = BenchServers.source("bench-source", options.version(), workDir, slots);
                PostgresNode target = BenchServers.target("bench-target", options.version(), workDir);
                KafkaNode kafka = KafkaNode.start(workDir);
                ConnectNode connect = ConnectNode.start(kafka.bootstrapServers(), options.pluginPath())) {
            SuiteBench bench = new SuiteBench(options, source, target, kafka, connect, workDir);
            return bench.measure();
        }
    }

    private boolean measure() throws Exception {
        Backlog backlog = new Backlog(source, options.backlog());
        backlog.prepare();
        TargetDatabases targets = new TargetDatabases(source, target);
        targets.createTemplate(backlog);
        String environment = environment();
        BenchReport sourceReport = new BenchReport(environment);
        List<SinkReport> sinkReports = new ArrayList<>();
        for (Workload workload : options.workloads()) {
            if (workload != options.workloads().get(0)) {
                backlog.reset();
            }
            sinkReports.addAll(measure(workload, backlog, targets, sourceReport, environment));
        }
        EndToEndReport endToEnd = options.endToEnd() == null ? null : endToEnd(backlog, targets);
        SnapshotReport snapshot = options.snapshot() == null ? null : snapshot(environment);
        sourceReport.write(options.outDir());
        for (SinkReport sinkReport : sinkReports) {
            sinkReport.mergeInto(options.outDir());
        }
        if (endToEnd != null) {
            SuiteReport.mergeEndToEnd(options.outDir(), endToEnd.runs());
        }
        if (snapshot != null) {
            snapshot.mergeInto(options.outDir());
        }
        String markdown = new SuiteMarkdown(environment, sourceReport, sinkReports, endToEnd, snapshot).render();
        Files.writeString(options.outDir().resolve(MARKDOWN), markdown);
        System.out.println(markdown);
        return sinkReports.stream().noneMatch(SinkReport::hasFailures)
                && (endToEnd == null || !endToEnd.hasFailures())
                && (snapshot == null || !snapshot.hasFailures());
    }

    /** The snapshot stage; its failed or wrong runs are recorded in its report, not measured. */
    private SnapshotReport snapshot(String environment) throws Exception {
        SnapshotConnectors connectors = new SnapshotConnectors(
                source,
                target,
                connect.rest(),
                kafka.bootstrapServers(),
                options.sourceSettings(),
                options.sinkSettings());
        EngineRun engine = options.engineClasspath() == null
                ? null
                : new EngineRun(source, options.engineClasspath(), options.pluginPath(), workDir);
        return new SnapshotStage(
                        options.snapshot(),
                        options.runs(),
                        connectors,
                        engine,
                        options.backlog().pgbench(),
                        workDir,
                        options.endToEndWorkers())
                .measure(environment);
    }

    /** The end-to-end stage, run after run; a failed or wrong run is recorded, not measured. */
    private EndToEndReport endToEnd(Backlog backlog, TargetDatabases targets) {
        EndToEndRun e2e = new EndToEndRun(
                target,
                connect.rest(),
                kafka.bootstrapServers(),
                backlog,
                targets,
                options.sourceSettings(),
                options.sinkSettings());
        List<EndToEndMeasurement> runs = new ArrayList<>();
        List<String> failures = new ArrayList<>();
        for (int run = 1; run <= options.runs(); run++) {
            try {
                EndToEndMeasurement m = e2e.measure(options.endToEnd(), options.endToEndWorkers(), run);
                log.info(
                        "end to end, run {}: {} tx in {} s ({} tx/s), drained in {} s; lag max {} s, at load end {}"
                                + " s, bounded: {}",
                        run,
                        m.transactions(),
                        String.format(Locale.ROOT, "%.1f", m.loadSeconds()),
                        Math.round(m.generationRate()),
                        String.format(Locale.ROOT, "%.2f", m.drainSeconds()),
                        String.format(Locale.ROOT, "%.2f", m.lag().maxSeconds()),
                        String.format(Locale.ROOT, "%.2f", m.lag().endSeconds()),
                        m.lag().bounded());
                runs.add(m);
            } catch (Exception e) {
                log.error("end to end, run {} failed", run, e);
                failures.add("run " + run + ": " + e.getMessage());
            }
        }
        return new EndToEndReport(runs, failures);
    }

    /**
     * Both stages on one backlog of {@code workload} (and the latency stage on pgbench's); adds the source runs to
     * {@code sourceReport} and returns the sink stages' reports.
     */
    private List<SinkReport> measure(
            Workload workload, Backlog backlog, TargetDatabases targets, BenchReport sourceReport, String environment)
            throws Exception {
        ConnectorRun connector =
                new ConnectorRun(source, connect.rest(), kafka.bootstrapServers(), options.sourceSettings());
        SourceStage stage = sourceStage(workload, connector);
        List<String> slots = new ArrayList<>();
        IntStream.rangeClosed(1, options.runs()).forEach(run -> slots.addAll(stage.slots(run)));
        IntStream.rangeClosed(1, options.runs()).forEach(run -> slots.add(nativeSlot(run)));
        Backlog.Info info = backlog.create(workload, slots.toArray(String[]::new));
        log.info(
                "{} backlog: {} transactions, {} changes, {} MB of WAL, written in {} s",
                workload.label(),
                info.transactions(),
                info.changes(),
                info.walBytes() / 1_000_000,
                String.format(Locale.ROOT, "%.1f", info.generationSeconds()));
        Measurement inKafka = null;
        for (int run = 1; run <= options.runs(); run++) {
            List<Measurement> measured = stage.measure(info, run);
            sourceReport.add(new BenchReport.Run(workload, run, info, measured));
            if (run == 1) {
                inKafka = measured.stream()
                        .filter(m -> m.system().equals(SourceSystem.PGLANE_KAFKA.label()))
                        .findFirst()
                        .orElseThrow();
            }
        }
        SinkReport sinkReport = new SinkReport(environment, info, inKafka);
        String topics = topicPrefix(workload, 1);
        SinkConnectorRun sinkRun = options.workers().isEmpty()
                ? null
                : new SinkConnectorRun(
                        source, target, connect.rest(), kafka.bootstrapServers(), topics, options.sinkSettings());
        NativeSubscriberRun nativeRun = options.nativeSubscriber() ? new NativeSubscriberRun(source, target) : null;
        new SinkStage(options.runs(), options.workers(), targets, nativeRun, sinkRun, "bench_" + workload.label() + "_")
                .measure(sinkReport, info, SuiteBench::nativeSlot);
        List<SinkReport> reports = new ArrayList<>(List.of(sinkReport));
        if (options.targetDelay() != null && workload == Workload.PGBENCH) {
            reports.add(latencyStage(info, targets, topics, inKafka, environment));
        }
        connector.deleteTopics(topics);
        backlog.dropSlots(slots.toArray(String[]::new));
        return reports;
    }

    /**
     * pglane's sink with 1 and 8 workers onto a target it reaches through a {@link TcpProxy} that holds every chunk
     * for the configured delay each way: how far parallel apply hides a target's round-trip time.
     */
    private SinkReport latencyStage(
            Backlog.Info info, TargetDatabases targets, String topics, Measurement inKafka, String environment)
            throws Exception {
        long micros = options.targetDelay().toNanos() / 1000;
        SinkReport report = new SinkReport(
                LATENCY_STAGE,
                environment + " Target behind a proxy holding each chunk " + micros + " µs each way.",
                info,
                inKafka);
        try (TcpProxy proxy = TcpProxy.start(target.host(), target.port(), options.targetDelay())) {
            Map<String, String> settings = new LinkedHashMap<>(options.sinkSettings());
            settings.put("database.host", proxy.host());
            settings.put("database.port", Integer.toString(proxy.port()));
            SinkConnectorRun sinkRun =
                    new SinkConnectorRun(source, target, connect.rest(), kafka.bootstrapServers(), topics, settings);
            new SinkStage(options.runs(), LATENCY_WORKERS, targets, null, sinkRun, "bench_latency_")
                    .measure(report, info, SuiteBench::nativeSlot);
        }
        return report;
    }

    /**
     * pg_recvlogical, pglane into Kafka (the first run's topics kept for the sink stage, the others deleted) and,
     * unless --no-engine, pglane and Debezium into a no-op consumer.
     */
    private SourceStage sourceStage(Workload workload, ConnectorRun connector) {
        RecvLogicalRun recvLogical = new RecvLogicalRun(source, options.pgRecvlogical());
        int protocol = SourceThroughputBench.protocolVersion(options.version().major());
        SourceStage stage = new SourceStage()
                .with(SourceSystem.RECVLOGICAL, (slot, info, run) -> recvLogical.measure(slot, info, protocol))
                .with(SourceSystem.PGLANE_KAFKA, (slot, info, run) -> {
                    Measurement measured = connector.measure(slot, info, topicPrefix(workload, run));
                    if (run > 1) {
                        connector.deleteTopics(topicPrefix(workload, run));
                    }
                    return measured;
                });
        if (options.engineClasspath() != null) {
            EngineRun engine = new EngineRun(source, options.engineClasspath(), options.pluginPath(), workDir);
            stage.with(
                            SourceSystem.PGLANE_NOOP,
                            (slot, info, run) -> engine.measurePglane(slot, info, "noop_" + workload.label()))
                    .with(
                            SourceSystem.DEBEZIUM,
                            (slot, info, run) -> engine.measureDebezium(slot, info, "dbz_" + workload.label()));
        }
        return stage;
    }

    private static String topicPrefix(Workload workload, int run) {
        return "bench_" + workload.label() + "_" + run;
    }

    private static String nativeSlot(int run) {
        return "bench_native_" + run;
    }

    private String environment() {
        return String.format(
                Locale.ROOT,
                "PostgreSQL %s, source and target servers alike (%s); %d cores, shared by the servers, the broker, the"
                        + " worker, the engine JVM and this benchmark. Backlogs, each written once behind every"
                        + " slot of every run: %s; bulk %d rows in 1,000-row"
                        + " transactions. pglane into Kafka: config-examples/source-json.json (pglane JSON converter,"
                        + " schemas on; settings changed: %s), broker and worker in the benchmark's JVM. Engine runs:"
                        + " Debezium's engine (\"connect\" format, no converter) with a consumer that only counts, in"
                        + " a JVM of its own. pglane's sink: config-examples/sink-json.json (settings changed: %s)."
                        + " PostgreSQL's subscriber: %s.",
                source.serverVersion(),
                BenchServers.TUNING,
                Runtime.getRuntime().availableProcessors(),
                options.backlog().pgbenchCommand(),
                options.backlog().bulkRows(),
                describe(options.sourceSettings()),
                describe(options.sinkSettings()),
                NativeSubscriberRun.describe());
    }

    private static String describe(Map<String, String> settings) {
        return settings.isEmpty() ? "none" : settings.toString();
    }
}
