package dev.pglane.local.bench.snapshot;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.pglane.local.bench.Spread;
import dev.pglane.local.bench.SuiteReport;
import dev.pglane.local.bench.sustained.StepLag;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.ToDoubleFunction;

/**
 * The snapshot stage's runs, their medians and the ratios issue #14 sets targets for, each taken within one run
 * (pglane beside Debezium, pglane end to end beside the COPY pipe) before the median over runs; and its entries of
 * {@code report.json} (backlog and stage {@code snapshot}).
 */
public final class SnapshotReport {
    public static final String STAGE = "snapshot";
    static final double SOURCE_VS_DEBEZIUM = 5.0;
    static final double END_TO_END_VS_COPY = 0.5;
    /** 64 MB as PostgreSQL counts its sizes (2^20 bytes a MB). */
    static final long WAL_LIMIT_BYTES = 64L << 20;
    /** Issue #36: the snapshot under load keeps at least this share of its rate without load. */
    static final double UNDER_LOAD_VS_IDLE = 0.5;
    /** Issue #36: the stream's lag p99 while the snapshot runs under load, at most. */
    static final double STREAM_LAG_P99_SECONDS = 2.0;

    private static final ObjectMapper JSON = new ObjectMapper();

    /**
     * One system and thread count over the runs.
     *
     * @param walMaxBytes null when the runs did not sample the slot
     * @param streamLagP50 the stream's lag meanwhile, seconds; these three null when the runs had no load
     */
    record Summary(
            String configuration,
            SnapshotSystem system,
            int threads,
            int runs,
            Spread seconds,
            Spread rowsPerSecond,
            Spread megabytesPerSecond,
            Spread cpuPerMillionRows,
            Spread walMaxBytes,
            Spread loadRate,
            Spread streamLagP50,
            Spread streamLagP99,
            Spread streamLagMax) {}

    /** A ratio of two systems' rows/s over the runs that measured both, for one thread count of pglane's. */
    record Ratio(int threads, Spread ratio) {}

    private final String environment;
    private final SnapshotData.Info data;
    private final List<SnapshotMeasurement> runs = new ArrayList<>();
    private final List<String> failures = new ArrayList<>();

    /** @param environment what was loaded, how, and the settings, for the report's reader */
    SnapshotReport(String environment, SnapshotData.Info data) {
        this.environment = environment;
        this.data = data;
    }

    void add(SnapshotMeasurement measured) {
        runs.add(measured);
    }

    /** A run that failed or loaded wrongly: recorded, never measured. */
    void fail(String configuration, int run, Exception e) {
        failures.add(configuration + ", run " + run + ": " + e.getMessage());
    }

    String environment() {
        return environment;
    }

    SnapshotData.Info data() {
        return data;
    }

    List<SnapshotMeasurement> runs() {
        return List.copyOf(runs);
    }

    List<String> failures() {
        return List.copyOf(failures);
    }

    public boolean hasFailures() {
        return !failures.isEmpty();
    }

    /** Per system and thread count, in the order of {@link SnapshotSystem}, then by threads. */
    List<Summary> summaries() {
        Map<String, List<SnapshotMeasurement>> byConfiguration = new LinkedHashMap<>();
        runs.stream()
                .sorted(Comparator.comparing(SnapshotMeasurement::system)
                        .thenComparingInt(SnapshotMeasurement::threads)
                        .thenComparingInt(SnapshotMeasurement::run))
                .forEach(m -> byConfiguration
                        .computeIfAbsent(m.configuration(), c -> new ArrayList<>())
                        .add(m));
        List<Summary> summaries = new ArrayList<>();
        byConfiguration.forEach((configuration, measured) -> {
            SnapshotMeasurement first = measured.get(0);
            summaries.add(new Summary(
                    configuration,
                    first.system(),
                    first.threads(),
                    measured.size(),
                    spread(measured, SnapshotMeasurement::seconds),
                    spread(measured, SnapshotMeasurement::rowsPerSecond),
                    spread(measured, SnapshotMeasurement::megabytesPerSecond),
                    spread(measured, SnapshotMeasurement::cpuPerMillionRows),
                    first.walMaxBytes() == null ? null : spread(measured, m -> m.walMaxBytes()),
                    first.loadRate() == null ? null : spread(measured, m -> m.loadRate()),
                    lag(measured, StepLag::p50Seconds),
                    lag(measured, StepLag::p99Seconds),
                    lag(measured, StepLag::maxSeconds)));
        });
        return summaries;
    }

    private static Spread lag(List<SnapshotMeasurement> measured, ToDoubleFunction<StepLag> figure) {
        List<Double> values = measured.stream()
                .filter(m -> m.streamLag() != null)
                .map(m -> figure.applyAsDouble(m.streamLag()))
                .toList();
        return values.isEmpty() ? null : Spread.of(values);
    }

    /** pglane's snapshot ÷ Debezium's, both in the engine into the counting consumer, rows/s, per thread count. */
    List<Ratio> sourceVsDebezium() {
        return ratios(SnapshotSystem.PGLANE_ENGINE, SnapshotSystem.DEBEZIUM, false);
    }

    /** pglane's snapshot into Kafka ÷ Debezium's into the counting consumer, rows/s, per thread count. */
    List<Ratio> kafkaVsDebezium() {
        return ratios(SnapshotSystem.PGLANE_KAFKA, SnapshotSystem.DEBEZIUM, false);
    }

    /** pglane end to end ÷ the COPY pipe, rows/s, per thread count. */
    List<Ratio> endToEndVsCopy() {
        return ratios(SnapshotSystem.PGLANE_END_TO_END, SnapshotSystem.COPY_PIPE, false);
    }

    /**
     * pglane end to end under load ÷ the same without load, rows/s, with the same thread count in the same run: the
     * share of its rate the snapshot keeps beside the stream.
     */
    List<Ratio> underLoadVsIdle() {
        return ratios(SnapshotSystem.PGLANE_UNDER_LOAD, SnapshotSystem.PGLANE_END_TO_END, true);
    }

    /** The stream's lag p99 while the snapshot ran under load, over the runs; null when none measured it. */
    Spread streamLagP99() {
        return lag(
                runs.stream()
                        .filter(m -> m.system() == SnapshotSystem.PGLANE_UNDER_LOAD)
                        .toList(),
                StepLag::p99Seconds);
    }

    /** The thread count with the highest median ratio, or empty when no run measured both systems. */
    static Optional<Ratio> best(List<Ratio> ratios) {
        return ratios.stream().max(Comparator.comparingDouble(r -> r.ratio().median()));
    }

    /** The most WAL the slot held back under load, over the runs; null when no such run succeeded. */
    Spread walMaxBytes() {
        List<SnapshotMeasurement> underLoad = runs.stream()
                .filter(m -> m.system() == SnapshotSystem.PGLANE_UNDER_LOAD)
                .toList();
        return underLoad.isEmpty() ? null : spread(underLoad, m -> m.walMaxBytes());
    }

    /**
     * {@code system}'s rows/s ÷ {@code reference}'s in the same run, per thread count of {@code system}'s; with
     * {@code sameThreads} only against the reference's run with as many threads (the reference is pglane too).
     */
    private List<Ratio> ratios(SnapshotSystem system, SnapshotSystem reference, boolean sameThreads) {
        List<Ratio> ratios = new ArrayList<>();
        runs.stream()
                .filter(m -> m.system() == system)
                .map(SnapshotMeasurement::threads)
                .distinct()
                .sorted()
                .forEach(threads -> {
                    List<Double> perRun = new ArrayList<>();
                    for (SnapshotMeasurement m : runs) {
                        if (m.system() == system && m.threads() == threads) {
                            runs.stream()
                                    .filter(r -> r.system() == reference
                                            && r.run() == m.run()
                                            && (!sameThreads || r.threads() == threads))
                                    .findFirst()
                                    .ifPresent(r -> perRun.add(m.rowsPerSecond() / r.rowsPerSecond()));
                        }
                    }
                    if (!perRun.isEmpty()) {
                        ratios.add(new Ratio(threads, Spread.of(perRun)));
                    }
                });
        return ratios;
    }

    private static Spread spread(List<SnapshotMeasurement> measured, ToDoubleFunction<SnapshotMeasurement> figure) {
        return Spread.of(measured.stream().map(m -> figure.applyAsDouble(m)).toList());
    }

    /** Writes {@code dir/report.json} with this stage's runs in place of earlier snapshot entries. */
    public void mergeInto(Path dir) throws IOException {
        SuiteReport.replace(
                dir, STAGE, STAGE, runs.stream().map(SnapshotReport::entry).toList());
    }

    static ObjectNode entry(SnapshotMeasurement m) {
        ObjectNode entry = JSON.createObjectNode();
        entry.put("backlog", STAGE);
        entry.put("stage", STAGE);
        entry.put("system", m.system().key());
        entry.put("workers", m.threads());
        entry.put("run", m.run());
        entry.put("seconds", round(m.seconds()));
        entry.put("rows", m.rows());
        entry.put("copy_bytes", m.copyBytes());
        entry.put("rows_per_s", round(m.rowsPerSecond()));
        entry.put("changes_per_s", round(m.rowsPerSecond()));
        entry.put("mb_per_s", round(m.megabytesPerSecond()));
        entry.put("cpu_s_per_million_rows", round(m.cpuPerMillionRows()));
        ObjectNode cpu = entry.putObject("cpu_s");
        cpu.put("source_pg", round(m.sourcePgCpu()));
        if (m.targetPgCpu() == null) {
            cpu.putNull("target_pg");
        } else {
            cpu.put("target_pg", round(m.targetPgCpu()));
        }
        // pglane's client is the Connect worker (with its broker); the others' a process of their own
        cpu.put(
                m.system() == SnapshotSystem.COPY_PIPE
                                || m.system() == SnapshotSystem.DEBEZIUM
                                || m.system() == SnapshotSystem.PGLANE_ENGINE
                        ? "client"
                        : "connect",
                round(m.clientCpu()));
        if (m.walMaxBytes() != null) {
            entry.put("wal_retained_max_bytes", m.walMaxBytes());
        }
        if (m.loadRate() != null) {
            entry.put("load_tx_per_s", round(m.loadRate()));
        }
        if (m.streamLag() != null) {
            ObjectNode lag = entry.putObject("stream_lag_s");
            lag.put("probes", m.streamLag().probes());
            lag.put("p50", round(m.streamLag().p50Seconds()));
            lag.put("p99", round(m.streamLag().p99Seconds()));
            lag.put("max", round(m.streamLag().maxSeconds()));
        }
        return entry;
    }

    private static double round(double value) {
        return Math.round(value * 1000) / 1000.0;
    }
}
