package dev.pglane.local.bench.snapshot;

import dev.pglane.local.bench.CpuMeter;
import dev.pglane.local.bench.SinkConnectorRun;
import dev.pglane.local.bench.TargetDatabases;
import dev.pglane.local.bench.sustained.BoundedRule;
import dev.pglane.local.bench.sustained.LagProbe;
import dev.pglane.local.bench.sustained.ProbeSample;
import dev.pglane.local.bench.sustained.StepLag;
import dev.pglane.local.kafka.TopicFormat;
import dev.pglane.local.pipeline.CatchUp;
import dev.pglane.local.pipeline.Pipeline;
import dev.pglane.local.stack.PostgresNode;
import dev.pglane.local.stack.TaskMetrics;
import dev.pglane.local.verify.ComparisonReport;
import dev.pglane.local.workload.Pgbench;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * pglane's whole pipeline loading the existing rows into a fresh empty target: the sink created first (as the
 * README's walkthrough does), then the source with {@code snapshot.mode=initial}; timed from the source's creation
 * until the sink reports {@code snapshot-complete}. Optionally under pgbench's TPC-B load at a fixed rate on the same
 * tables, while the slot's retained WAL is sampled every second and a {@link LagProbe} times the stream's own
 * transactions from commit on the source to visible on the target; the load stops when the snapshot is complete, and
 * the sink then catches up with the changes. Either way the target is compared with the source (row counts and an
 * ordered checksum per table) afterwards: a target that differs fails the run.
 */
final class PglaneEndToEndRun {
    private static final Logger log = LoggerFactory.getLogger(PglaneEndToEndRun.class);
    private static final Duration TIMEOUT = Duration.ofMinutes(60);
    private static final Duration CATCH_UP = Duration.ofMinutes(10);
    private static final long POLL_MS = 100;
    private static final int LOAD_CLIENTS = 4;
    private static final int LOAD_JOBS = 2;

    private final SnapshotConnectors connectors;
    private final SnapshotData data;
    private final TargetDatabases targets;
    private final PostgresNode source;
    private final PostgresNode target;
    private final int workers;
    private final CpuMeter cpu;

    /** @param workers the sink's {@code apply.workers} */
    PglaneEndToEndRun(
            SnapshotConnectors connectors,
            SnapshotData data,
            TargetDatabases targets,
            PostgresNode source,
            PostgresNode target,
            int workers) {
        this.connectors = connectors;
        this.data = data;
        this.targets = targets;
        this.source = source;
        this.target = target;
        this.workers = workers;
        this.cpu = new CpuMeter(source, target);
    }

    /** Without load. */
    SnapshotMeasurement measure(SnapshotData.Info info, int threads, int run) throws Exception {
        return measure(info, threads, run, null);
    }

    /**
     * @param load pgbench at a rate during the snapshot, and where its output goes; null for none
     */
    SnapshotMeasurement measure(SnapshotData.Info info, int threads, int run, Load load) throws Exception {
        String suffix = (load == null ? "e2e_t" : "load_t") + threads + "_" + run;
        String sourceName = "snap_" + suffix;
        String sinkName = "snap_sink_" + suffix;
        String database = "snapshot_" + suffix;
        targets.createFromTemplate(database);
        SinkConnectorRun sink = connectors.sink(sourceName);
        Map<String, String> sinkConfig = sink.config(database, workers, sinkName);
        Process pgbench = null;
        LagProbe probe = null;
        try {
            connectors.rest().putConnectorConfig(sinkName, sinkConfig);
            CpuMeter.Reading before = cpu.read();
            long begin = System.nanoTime();
            if (load != null) {
                pgbench = load.start(source);
                probe = LagProbe.start(source.open(SnapshotData.DATABASE), target.open(database));
            }
            long walMax;
            try (RetainedWalSampler wal = RetainedWalSampler.start(source, sourceName)) {
                Map<String, String> sourceConfig = connectors.source(sourceName, sourceName, "initial", threads);
                // paced by this run's sink (snapshot.pace.group)
                sourceConfig.put("snapshot.pace.group", "connect-" + sinkName);
                sourceConfig.put("snapshot.pace.bootstrap.servers", connectors.bootstrapServers());
                connectors.rest().putConnectorConfig(sourceName, sourceConfig);
                awaitSnapshotComplete(sourceName, sinkName);
                walMax = wal.stop();
                log.info(
                        "{}: the slot's WAL, MB retained / MB behind its confirmed position, every second: {}",
                        sourceName,
                        wal.readings());
            }
            long end = System.nanoTime();
            double seconds = (end - begin) / 1e9;
            CpuMeter.Reading used = cpu.read().since(before);
            LoadOutcome loaded = pgbench == null
                    ? new LoadOutcome(null, null)
                    : afterLoad(pgbench, probe, load.log(), begin, end, database, sourceName, sinkConfig);
            ComparisonReport comparison = targets.compare(database);
            if (!comparison.isEqual()) {
                throw new IllegalStateException("the target differs from the source:\n" + comparison.summary());
            }
            return new SnapshotMeasurement(
                    load == null ? SnapshotSystem.PGLANE_END_TO_END : SnapshotSystem.PGLANE_UNDER_LOAD,
                    threads,
                    run,
                    seconds,
                    info.totalRows(),
                    info.copyBytes(),
                    used.sourcePg(),
                    used.targetPg(),
                    used.jvm(),
                    walMax,
                    loaded.rate(),
                    loaded.streamLag());
        } finally {
            if (probe != null) {
                probe.close();
            }
            if (pgbench != null) {
                stop(pgbench);
            }
            sink.remove(sinkName);
            connectors.removeSource(sourceName, sourceName, data);
            targets.drop(database);
        }
    }

    /** What a run under load measured besides the snapshot: the load's rate, the stream's lag. */
    private record LoadOutcome(Double rate, StepLag streamLag) {}

    /**
     * The snapshot is complete at {@code end}: stops the load, waits until the sink has caught up with it and the probe
     * rows of the snapshot's time are on the target, and takes what the load and the probe measured.
     */
    private LoadOutcome afterLoad(
            Process pgbench,
            LagProbe probe,
            Path pgbenchLog,
            long begin,
            long end,
            String database,
            String sourceName,
            Map<String, String> sinkConfig)
            throws Exception {
        if (!pgbench.isAlive()) {
            // the load ended before the snapshot did: the run was not under load for all of it
            throw new IllegalStateException(
                    // its log goes with the work directory: the report gets what it said
                    "pgbench -R exited early (" + pgbench.exitValue() + "): " + Files.readString(pgbenchLog));
        }
        probe.stopWriting();
        stop(pgbench);
        double rate = data.rows("pgbench_history") / ((System.nanoTime() - begin) / 1e9);
        Pipeline pipeline = new Pipeline(
                source.jdbcUrlOf(SnapshotData.DATABASE),
                target.jdbcUrlOf(database),
                connectors.bootstrapServers(),
                sourceName,
                sourceName,
                sinkConfig.get("name"),
                sinkConfig.get("progress.table"),
                TopicFormat.JSON);
        CatchUp.unlessFailed(pipeline, connectors.rest(), sourceName).await(CATCH_UP);
        // the probe rows committed before the slot existed come with the probe table's chunk, after later ones
        long firstSeen = firstSeen(probe.samples(begin, end, System.nanoTime()), begin);
        if (!probe.awaitVisible(firstSeen, end, CATCH_UP)) {
            throw new IllegalStateException("probe rows committed during the snapshot never reached the target");
        }
        List<ProbeSample> samples = probe.samples(begin, end, System.nanoTime());
        log.info("{}: the stream's lag, s, the most of each second's probe rows: {}", sourceName, bySecond(samples));
        return new LoadOutcome(rate, streamLag(samples));
    }

    /** The most lag of the probe rows committed in each second, from the run's start, for the log. */
    private static String bySecond(List<ProbeSample> samples) {
        TreeMap<Integer, Double> most = new TreeMap<>();
        for (ProbeSample sample : samples) {
            most.merge((int) sample.committedAtSeconds(), sample.lagSeconds(), Math::max);
        }
        StringBuilder line = new StringBuilder();
        most.values().forEach(lag -> line.append(String.format(Locale.ROOT, "%.1f ", lag)));
        return line.toString().trim();
    }

    /** The commit instant of the first probe row the target showed (System.nanoTime()); {@code begin} for none. */
    private static long firstSeen(List<ProbeSample> samples, long begin) {
        return samples.stream()
                .filter(ProbeSample::seen)
                .findFirst()
                .map(s -> begin + Math.round(s.committedAtSeconds() * 1e9) - 1_000_000)
                .orElse(begin);
    }

    /**
     * The stream's lag while the snapshot ran: the probe rows committed from the first one the target showed (from
     * then on the pipeline runs; before it, the connector's start and the slot's creation) until the snapshot's end.
     */
    static StepLag streamLag(List<ProbeSample> samples) {
        int first = 0;
        while (first < samples.size() && !samples.get(first).seen()) {
            first++;
        }
        List<ProbeSample> streaming = samples.subList(Math.min(first, samples.size()), samples.size());
        double span = streaming.isEmpty()
                ? 0
                : streaming.get(streaming.size() - 1).committedAtSeconds()
                        - streaming.get(0).committedAtSeconds();
        return BoundedRule.DEFAULT.judge(streaming, span);
    }

    /** Polls the sink's {@code snapshot-complete} metric, failing at once when either connector has failed. */
    private void awaitSnapshotComplete(String sourceName, String sinkName) throws InterruptedException {
        long deadline = System.nanoTime() + TIMEOUT.toNanos();
        long nextCheck = 0;
        while (!snapshotComplete(sinkName)) {
            long now = System.nanoTime();
            if (now > deadline) {
                throw new IllegalStateException("the sink did not report snapshot-complete within " + TIMEOUT);
            }
            if (now > nextCheck) {
                connectors.checkRunning(sourceName);
                connectors.checkRunning(sinkName);
                nextCheck = now + 1_000_000_000L;
            }
            Thread.sleep(POLL_MS);
        }
    }

    /** The sink task's metric; false while the task has not registered its metrics yet. */
    private static boolean snapshotComplete(String sinkName) {
        try {
            return TaskMetrics.value(sinkName, "snapshot-complete") == 1.0;
        } catch (IllegalStateException e) {
            return false;
        }
    }

    private static void stop(Process pgbench) throws InterruptedException {
        pgbench.destroy();
        pgbench.waitFor();
    }

    /**
     * pgbench's TPC-B load on the stage's database during a run.
     *
     * @param rate {@code pgbench -R}, transactions per second
     * @param log where pgbench's output goes
     */
    record Load(Path pgbench, int rate, Path log) {
        Process start(PostgresNode source) throws java.io.IOException {
            return Pgbench.of(pgbench, source)
                    .inDatabase(SnapshotData.DATABASE)
                    .startAtRate(LOAD_CLIENTS, LOAD_JOBS, rate, log);
        }
    }
}
