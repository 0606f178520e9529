package dev.pglane.local.bench.snapshot;

import dev.pglane.local.bench.Spread;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Optional;

/**
 * The snapshot stage in {@code report.md}: its rows of the targets table (issue #14's three targets, met or not), and
 * its section: what was loaded, one row per system and thread count (median and min..max over the runs), the ratios
 * per thread count, and the failed runs.
 */
public final class SnapshotMarkdown {
    private static final String BACKLOG = "initial load";

    private final SnapshotReport report;

    public SnapshotMarkdown(SnapshotReport report) {
        this.report = report;
    }

    /** Rows of the suite's targets table: {@code | backlog | target | measured | met |}. */
    public List<String> targetRows() {
        List<String> rows = new ArrayList<>();
        rows.add(ratioRow(
                "pglane's source snapshot ≥ 5× Debezium's initial snapshot (rows/s, both in the engine into a counting"
                        + " consumer)",
                SnapshotReport.best(report.sourceVsDebezium()),
                SnapshotReport.SOURCE_VS_DEBEZIUM));
        rows.add(ratioRow(
                "pglane end to end into an empty target ≥ 0.5× the COPY-to-COPY pipe (rows/s)",
                SnapshotReport.best(report.endToEndVsCopy()),
                SnapshotReport.END_TO_END_VS_COPY));
        Spread wal = report.walMaxBytes();
        rows.add(format(
                "| %s | WAL retained by the slot during the load < 64 MB, pgbench -R on the source (max of the"
                        + " run) | %s | %s |\n",
                BACKLOG,
                wal == null ? "not measured" : format("%s MB (%s..%s)", mb(wal.median()), mb(wal.min()), mb(wal.max())),
                wal == null ? "not measured" : wal.max() < SnapshotReport.WAL_LIMIT_BYTES ? "yes" : "no"));
        rows.add(ratioRow(
                "pglane end to end under pgbench -R ≥ 0.5× its rate without load (rows/s, same snapshot.threads, same"
                        + " run; issue #36)",
                SnapshotReport.best(report.underLoadVsIdle()),
                SnapshotReport.UNDER_LOAD_VS_IDLE));
        Spread lag = report.streamLagP99();
        rows.add(format(
                "| %s | the stream's lag p99 ≤ 2 s while the snapshot runs under pgbench -R (a probe row every 100 ms,"
                        + " commit on the source to visible on the target; issue #36) | %s | %s |\n",
                BACKLOG,
                lag == null ? "not measured" : format("%.2f s (%.2f..%.2f)", lag.median(), lag.min(), lag.max()),
                lag == null ? "not measured" : lag.median() <= SnapshotReport.STREAM_LAG_P99_SECONDS ? "yes" : "no"));
        return rows;
    }

    private static String ratioRow(String target, Optional<SnapshotReport.Ratio> best, double goal) {
        String measured = best.map(r -> format(
                        "%.2f× (%.2f..%.2f), best at snapshot.threads %d",
                        r.ratio().median(), r.ratio().min(), r.ratio().max(), r.threads()))
                .orElse("not measured");
        String met = best.map(r -> r.ratio().median() >= goal ? "yes" : "no").orElse("not measured");
        return format("| %s | %s | %s | %s |\n", BACKLOG, target, measured, met);
    }

    /** The stage's section, under its heading. */
    public String body() {
        SnapshotData.Info data = report.data();
        StringBuilder md = new StringBuilder(report.environment()).append("\n\n");
        md.append(format(
                "Source: %,d rows (%s per table, in the order %s), %.1f MB as COPY text, %.1f MB of table"
                        + " (pg_table_size). MB/s below is COPY-text MB (10^6 bytes) over the seconds. CPU per"
                        + " million rows: the source server, the target server (where written) and the client (this"
                        + " JVM with the Connect worker and broker for pglane and the COPY pipe; the engine's JVM for"
                        + " Debezium and pglane in the engine).\n\n",
                data.totalRows(),
                data.rows(),
                String.join(", ", SnapshotData.TABLES),
                data.copyBytes() / 1e6,
                data.tableBytes() / 1e6));
        md.append("| system | runs | seconds | rows/s | MB/s | CPU s per million rows | WAL retained max MB"
                        + " | load tx/s | stream lag p50 / p99 / max s |\n")
                .append("|---|---:|---:|---:|---:|---:|---:|---:|---:|\n");
        for (SnapshotReport.Summary s : report.summaries()) {
            md.append(format(
                    "| %s | %d | %s | %s | %s | %s | %s | %s | %s |\n",
                    s.configuration(),
                    s.runs(),
                    spread("%.2f", s.seconds()),
                    spread("%,.0f", s.rowsPerSecond()),
                    spread("%.1f", s.megabytesPerSecond()),
                    spread("%.2f", s.cpuPerMillionRows()),
                    s.walMaxBytes() == null ? "-" : mb(s.walMaxBytes().median()),
                    s.loadRate() == null ? "-" : spread("%,.0f", s.loadRate()),
                    s.streamLagP99() == null
                            ? "-"
                            : format(
                                    "%.2f / %.2f / %.2f",
                                    s.streamLagP50().median(),
                                    s.streamLagP99().median(),
                                    s.streamLagMax().median())));
        }
        md.append("\nRatios of rows/s, each taken within one run, median (min..max) over the runs:\n\n")
                .append("| snapshot.threads | pglane (engine) ÷ Debezium | pglane → Kafka ÷ Debezium"
                        + " | pglane end to end ÷ COPY pipe | under load ÷ without |\n")
                .append("|---:|---:|---:|---:|---:|\n");
        List<List<SnapshotReport.Ratio>> columns = List.of(
                report.sourceVsDebezium(), report.kafkaVsDebezium(), report.endToEndVsCopy(), report.underLoadVsIdle());
        columns.stream()
                .flatMap(List::stream)
                .map(SnapshotReport.Ratio::threads)
                .distinct()
                .sorted()
                .forEach(t -> md.append(ratioLine(t, columns)));
        if (report.hasFailures()) {
            md.append("\nFailed runs (not in the figures above):\n\n");
            report.failures()
                    .forEach(
                            f -> md.append("- ").append(f.replace("\n", "\n  ")).append('\n'));
        }
        return md.toString();
    }

    private static String ratioLine(int threads, List<List<SnapshotReport.Ratio>> columns) {
        StringBuilder line = new StringBuilder(format("| %d |", threads));
        columns.forEach(
                ratios -> line.append(' ').append(ratio(ratios, threads)).append(" |"));
        return line.append('\n').toString();
    }

    private static String ratio(List<SnapshotReport.Ratio> ratios, int threads) {
        return ratios.stream()
                .filter(r -> r.threads() == threads)
                .findFirst()
                .map(r -> format(
                        "%.2f× (%.2f..%.2f)",
                        r.ratio().median(), r.ratio().min(), r.ratio().max()))
                .orElse("-");
    }

    private static String spread(String pattern, Spread s) {
        return format(pattern + " (" + pattern + ".." + pattern + ")", s.median(), s.min(), s.max());
    }

    private static String mb(double bytes) {
        return format("%.1f", bytes / (1 << 20));
    }

    private static String format(String pattern, Object... values) {
        return String.format(Locale.ROOT, pattern, values);
    }
}
