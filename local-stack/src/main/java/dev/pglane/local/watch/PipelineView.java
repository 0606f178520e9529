package dev.pglane.local.watch;

import java.util.List;
import java.util.Locale;

/** How a {@link PipelineReading} reads to a person: a few aligned lines for a terminal, one line for a log. */
public final class PipelineView {
    static final String WAITING = "waiting for the connectors' tasks to publish their metrics";

    private PipelineView() {}

    /** The lines of one frame of the live view; {@code status} says what the pipeline is doing. */
    public static List<String> frame(String status, PipelineReading r) {
        return List.of(
                "pglane  " + status,
                String.format(
                        Locale.ROOT,
                        "  source  LSN %-17s %10s tx/s %11s rows/s",
                        r.sourceLsn(),
                        rate(r.sourceTxPerSecond()),
                        rate(r.sourceRowsPerSecond())),
                String.format(
                        Locale.ROOT,
                        "  sink    LSN %-17s %10s tx/s %11s rows/s",
                        r.appliedLsn(),
                        rate(r.targetTxPerSecond()),
                        rate(r.targetRowsPerSecond())),
                String.format(Locale.ROOT, "  lag     %s behind, %s of WAL", seconds(r.lagMs()), bytes(r.lagBytes())),
                String.format(
                        Locale.ROOT,
                        "  apply   %s workers busy, %,d transactions buffered",
                        workers(r),
                        r.bufferedTransactions()));
    }

    /** The frame before the connectors' metrics exist. */
    public static List<String> waiting(String status) {
        return List.of("pglane  " + status, "  " + WAITING);
    }

    /** One line with the same figures, for output that is not a terminal. */
    public static String line(String status, PipelineReading r) {
        return String.format(
                Locale.ROOT,
                "%s | source %s %s tx/s %s rows/s | sink applied %s %s tx/s %s rows/s | lag %s, %s"
                        + " | %s workers busy | %,d tx buffered",
                status,
                r.sourceLsn(),
                rate(r.sourceTxPerSecond()),
                rate(r.sourceRowsPerSecond()),
                r.appliedLsn(),
                rate(r.targetTxPerSecond()),
                rate(r.targetRowsPerSecond()),
                seconds(r.lagMs()),
                bytes(r.lagBytes()),
                workers(r),
                r.bufferedTransactions());
    }

    private static String workers(PipelineReading r) {
        return r.applyWorkers() > 0 ? r.busyWorkers() + "/" + r.applyWorkers() : Long.toString(r.busyWorkers());
    }

    private static String rate(double perSecond) {
        return String.format(Locale.ROOT, "%,.0f", perSecond);
    }

    private static String seconds(long millis) {
        return String.format(Locale.ROOT, "%.1f s", millis / 1000.0);
    }

    static String bytes(long bytes) {
        if (bytes < 1024) {
            return bytes + " B";
        }
        String[] units = {"KiB", "MiB", "GiB", "TiB"};
        double value = bytes;
        int unit = -1;
        do {
            value /= 1024;
            unit++;
        } while (value >= 1024 && unit < units.length - 1);
        return String.format(Locale.ROOT, "%.1f %s", value, units[unit]);
    }
}
