package dev.pglane.local.bench;

import dev.pglane.local.bench.html.HtmlReport;
import dev.pglane.local.bench.snapshot.SnapshotConnectors;
import dev.pglane.local.bench.snapshot.SnapshotReport;
import dev.pglane.local.bench.snapshot.SnapshotStage;
import dev.pglane.local.stack.ConnectNode;
import dev.pglane.local.stack.KafkaNode;
import dev.pglane.local.stack.PostgresNode;
import dev.pglane.local.stack.RegistryNode;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.EnumMap;
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
 * <p>A source and a target server tuned alike, a broker and a worker in this JVM. Per backlog (by default pgbench, then
 * bulk; {@code --workload} adds the independent one):
 * every slot of every run and system is created at one WAL position, then the backlog and its fence are written
 * once. The source stage lets each reader catch up from its own slot, run after run ({@link SourceStage}); pglane's
 * first run into Kafka leaves its topics for the sink stage, which applies them onto fresh copies of the target's
 * template beside PostgreSQL's subscriber ({@link SinkStage}), then, on pgbench's and the independent backlog, once
 * more onto a target behind a delaying proxy with 1 and 8 workers (the latency stage, {@link DelayedTarget}). Before
 * each later backlog the source is reset to the template's state (both made again when the backlog's pgbench scale
 * differs: the independent backlog's is 50). Then the end-to-end stage: pgbench's load through the whole pipeline ({@link EndToEndRun}).
 * Last, the snapshot stage, on a database of its own on the source, so that it changes nothing the other stages read
 * ({@link SnapshotStage}).
 * Writes {@code report.json} (every run of every stage), {@code report.md} and, drawn from the JSON,
 * {@code report.html} ({@link HtmlReport}).
 */
public final class SuiteBench {
    private static final Logger log = LoggerFactory.getLogger(SuiteBench.class);
    static final String MARKDOWN = "report.md";
    static final List<Integer> LATENCY_WORKERS = List.of(1, 8);

    private final SuiteOptions options;
    private final PostgresNode source;
    private final PostgresNode target;
    private final KafkaNode kafka;
    private final ConnectNode connect;
    private final RegistryNode registry;
    private final Path workDir;

    private SuiteBench(
            SuiteOptions options,
            PostgresNode source,
            PostgresNode target,
            KafkaNode kafka,
            ConnectNode connect,
            RegistryNode registry,
            Path workDir) {
        this.options = options;
        this.source = source;
        this.target = target;
        this.kafka = kafka;
        this.connect = connect;
        this.registry = registry;
        this.workDir = workDir;
    }

    public static void main(String[] args) {
        BenchLauncher.launch("bench", SuiteOptions.USAGE, args, SuiteOptions::parse, (options, dir) -> {
            boolean valid = run(options, dir);
            System.out.println("report: " + options.outDir().resolve(MARKDOWN) + ", "
                    + options.outDir().resolve(SuiteReport.FILE) + " and "
                    + options.outDir().resolve(HtmlReport.FILE));
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
                ConnectNode connect = ConnectNode.start(kafka.bootstrapServers(), options.pluginPath());
                RegistryNode registry = BenchFormat.anyAvro(options.formats())
                        ? RegistryNode.start(workDir.resolve("registry"))
                        : null) {
            SuiteBench bench = new SuiteBench(options, source, target, kafka, connect, registry, workDir);
            return bench.measure();
        }
    }

    private boolean measure() throws Exception {
        Backlog backlog = new Backlog(source, options.backlog());
        Workload first = options.workloads().get(0);
        backlog.prepare(first);
        TargetDatabases targets = new TargetDatabases(source, target);
        targets.createTemplate(backlog, first);
        String environment = environment();
        BenchReport sourceReport = new BenchReport(environment);
        List<SinkReport> sinkReports = new ArrayList<>();
        for (Workload workload : options.workloads()) {
            if (workload != first) {
                switchTo(workload, backlog, targets);
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
        HtmlReport.write(options.outDir().resolve(SuiteReport.FILE));
        System.out.println(markdown);
        return sinkReports.stream().noneMatch(SinkReport::hasFailures)
                && (endToEnd == null || !endToEnd.hasFailures())
                && (snapshot == null || !snapshot.hasFailures());
    }

    /**
     * Brings the source to {@code next}'s initial state and, when that has pgbench's tables at another scale than the
     * last backlog's (the independent backlog's is larger), the target's template too.
     */
    private static void switchTo(Workload next, Backlog backlog, TargetDatabases targets) throws Exception {
        boolean newScale = backlog.scaleChanges(next);
        backlog.reset(next);
        if (newScale) {
            targets.replaceTemplate(backlog, next);
        }
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

    /**
     * The end-to-end stage, run after run, on pgbench's tables at the TPC-B backlog's scale; a failed or wrong run is
     * recorded, not measured.
     */
    private EndToEndReport endToEnd(Backlog backlog, TargetDatabases targets) throws Exception {
        if (backlog.scaleChanges(Workload.PGBENCH)) {
            switchTo(Workload.PGBENCH, backlog, targets); // after the independent backlog's larger tables
        }
        List<EndToEndMeasurement> runs = new ArrayList<>();
        List<String> failures = new ArrayList<>();
        for (BenchFormat format : options.formats()) {
            endToEnd(format, backlog, targets, runs, failures);
        }
        return new EndToEndReport(runs, failures);
    }

    private void endToEnd(
            BenchFormat format,
            Backlog backlog,
            TargetDatabases targets,
            List<EndToEndMeasurement> runs,
            List<String> failures) {
        EndToEndRun e2e = new EndToEndRun(
                format,
                target,
                connect.rest(),
                kafka.bootstrapServers(),
                backlog,
                targets,
                sourceSettings(format),
                sinkSettings(format));
        for (int run = 1; run <= options.runs(); run++) {
            try {
                EndToEndMeasurement m = e2e.measure(options.endToEnd(), options.endToEndWorkers(), run);
                log.info(
                        "end to end, {}, run {}: {} tx in {} s ({} tx/s), drained in {} s; lag max {} s, at load end"
                                + " {} s, bounded: {}",
                        format.option(),
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
                log.error("end to end, {}, run {} failed", format.option(), run, e);
                failures.add(format.option() + ", run " + run + ": " + e.getMessage());
            }
        }
    }

    private Map<String, String> sourceSettings(BenchFormat format) {
        return format.settings(options.sourceSettings(), registry);
    }

    private Map<String, String> sinkSettings(BenchFormat format) {
        return format.settings(options.sinkSettings(), registry);
    }

    /**
     * Both stages on one backlog of {@code workload} (and the latency stage on pgbench's and the independent one's);
     * adds the source runs to {@code sourceReport} and returns the sink stages' reports.
     */
    private List<SinkReport> measure(
            Workload workload, Backlog backlog, TargetDatabases targets, BenchReport sourceReport, String environment)
            throws Exception {
        Map<BenchFormat, ConnectorRun> connectors = new LinkedHashMap<>();
        for (BenchFormat format : options.formats()) {
            connectors.put(
                    format, new ConnectorRun(source, connect.rest(), kafka.bootstrapServers(), sourceSettings(format)));
        }
        SourceStage stage = sourceStage(workload, connectors);
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
        Map<BenchFormat, Measurement> inKafka = new EnumMap<>(BenchFormat.class);
        for (int run = 1; run <= options.runs(); run++) {
            List<Measurement> measured = stage.measure(info, run);
            sourceReport.add(new BenchReport.Run(workload, run, info, measured));
            if (run == 1) {
                for (BenchFormat format : options.formats()) {
                    inKafka.put(format, firstOf(measured, format.sourceSystem()));
                }
            }
        }
        List<SinkReport> reports = new ArrayList<>();
        SinkReport first = null;
        for (BenchFormat format : options.formats()) {
            SinkReport report = sinkStage(workload, format, info, targets, inKafka.get(format), environment, first);
            reports.add(report);
            first = first == null ? report : first;
        }
        if (options.targetDelay() != null && workload.isPgbench()) {
            for (BenchFormat format : options.formats()) {
                reports.add(latencyStage(workload, format, info, targets, inKafka.get(format), environment));
            }
        }
        for (BenchFormat format : options.formats()) {
            connectors.get(format).deleteTopics(topicPrefix(workload, format, 1));
        }
        backlog.dropSlots(slots.toArray(String[]::new));
        return reports;
    }

    private static Measurement firstOf(List<Measurement> measured, SourceSystem system) {
        return measured.stream()
                .filter(m -> m.system().equals(system.label()))
                .findFirst()
                .orElseThrow();
    }

    /**
     * PostgreSQL's subscriber and pglane's sink with each worker count on the topics of {@code format}'s first run.
     * The subscriber does not read Kafka: it is measured in the first format's stage only, and later formats' reports
     * compare with those runs.
     */
    private SinkReport sinkStage(
            Workload workload,
            BenchFormat format,
            Backlog.Info info,
            TargetDatabases targets,
            Measurement inKafka,
            String environment,
            SinkReport first)
            throws Exception {
        SinkReport report = new SinkReport(stageName("sink", format), environment, info, inKafka);
        SinkConnectorRun sinkRun = options.workers().isEmpty()
                ? null
                : new SinkConnectorRun(
                        source,
                        target,
                        connect.rest(),
                        kafka.bootstrapServers(),
                        topicPrefix(workload, format, 1),
                        sinkSettings(format));
        NativeSubscriberRun nativeRun =
                options.nativeSubscriber() && first == null ? new NativeSubscriberRun(source, target) : null;
        new SinkStage(
                        options.runs(),
                        options.workers(),
                        targets,
                        nativeRun,
                        sinkRun,
                        "bench_" + workload.label() + "_" + format.option() + "_",
                        table -> true)
                .measure(report, info, SuiteBench::nativeSlot);
        if (first != null) {
            first.nativeRuns().forEach(report::add);
        }
        return report;
    }

    /**
     * pglane's sink with 1 and 8 workers onto a target it reaches through a {@link DelayedTarget}: how far parallel
     * apply hides a target's round-trip time.
     */
    private SinkReport latencyStage(
            Workload workload,
            BenchFormat format,
            Backlog.Info info,
            TargetDatabases targets,
            Measurement inKafka,
            String environment)
            throws Exception {
        try (DelayedTarget delayed = DelayedTarget.start(target, options.targetDelay())) {
            SinkReport report = new SinkReport(
                    stageName(DelayedTarget.STAGE, format), environment + " " + delayed.describe(), info, inKafka);
            SinkConnectorRun sinkRun = new SinkConnectorRun(
                    source,
                    target,
                    connect.rest(),
                    kafka.bootstrapServers(),
                    topicPrefix(workload, format, 1),
                    delayed.sinkSettings(sinkSettings(format)));
            new SinkStage(
                            options.runs(),
                            LATENCY_WORKERS,
                            targets,
                            null,
                            sinkRun,
                            "bench_latency_" + workload.label() + "_" + format.option() + "_",
                            table -> true)
                    .measure(report, info, SuiteBench::nativeSlot);
            return report;
        }
    }

    /** A stage's name in the reports: JSON's is the plain name, another format's has the format appended. */
    static String stageName(String stage, BenchFormat format) {
        return format == BenchFormat.JSON ? stage : stage + "_" + format.option();
    }

    /**
     * pg_recvlogical, pglane into Kafka in each format (the first run's topics kept for the sink stage, the others
     * deleted) and, unless --no-engine, pglane and Debezium into a no-op consumer.
     */
    private SourceStage sourceStage(Workload workload, Map<BenchFormat, ConnectorRun> connectors) {
        RecvLogicalRun recvLogical = new RecvLogicalRun(source, options.pgRecvlogical());
        int protocol = SourceThroughputBench.protocolVersion(options.version().major());
        SourceStage stage = new SourceStage()
                .with(SourceSystem.RECVLOGICAL, (slot, info, run) -> recvLogical.measure(slot, info, protocol));
        connectors.forEach((format, connector) -> stage.with(format.sourceSystem(), (slot, info, run) -> {
            String topics = topicPrefix(workload, format, run);
            Measurement measured = connector.measure(slot, info, topics);
            if (run > 1) {
                connector.deleteTopics(topics);
            }
            return measured;
        }));
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

    private static String topicPrefix(Workload workload, BenchFormat format, int run) {
        return format == BenchFormat.JSON
                ? "bench_" + workload.label() + "_" + run
                : "bench_" + workload.label() + "_" + format.option() + "_" + run;
    }

    private static String nativeSlot(int run) {
        return "bench_native_" + run;
    }

    private String environment() {
        return String.format(
                Locale.ROOT,
                "PostgreSQL %s, source and target servers alike (%s); %d cores, shared by the servers, the broker, the"
                        + " worker, the engine JVM and this benchmark. Backlogs, each written once behind every"
                        + " slot of every run: %s. pglane into Kafka: config-examples/source-json.json (pglane JSON converter,"
                        + " schemas on; settings changed: %s), broker and worker in the benchmark's JVM. Engine runs:"
                        + " Debezium's engine (\"connect\" format, no converter) with a consumer that only counts, in"
                        + " a JVM of its own. pglane's sink: config-examples/sink-json.json (settings changed: %s)."
                        + " PostgreSQL's subscriber: %s.%s",
                source.serverVersion(),
                BenchServers.TUNING,
                Runtime.getRuntime().availableProcessors(),
                String.join(
                        "; ",
                        options.workloads().stream()
                                .map(options.backlog()::describe)
                                .toList()),
                describe(options.sourceSettings()),
                describe(options.sinkSettings()),
                NativeSubscriberRun.describe(),
                BenchFormat.anyAvro(options.formats())
                        ? " Avro (sections and systems marked so): both connectors with payload.format=avro, writing and"
                                + " reading Avro in their own threads through Apicurio Registry, the settings of"
                                + " TopicFormat.avroInLanes over the changes above; the snapshot stage runs in JSON."
                        : "");
    }

    private static String describe(Map<String, String> settings) {
        return settings.isEmpty() ? "none" : settings.toString();
    }
}
