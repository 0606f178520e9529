package dev.pglane.local.bench;

import dev.pglane.local.pipeline.Progress;
import dev.pglane.local.pipeline.ProgressTable;
import java.sql.SQLException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

/**
 * Reads a sink's progress every {@link #INTERVAL} on a thread of its own and keeps every reading's lag (unlike
 * {@code LagSampler}, which keeps the greatest only): the series that tells whether lag grows under a load.
 *
 * <p>A reading's lag is the age of the last applied transaction, but at most the time since the recorder started
 * with the load: what the sink applied before (a warm-up) ages while the source is idle, yet nothing older than the
 * load was pending.
 */
final class LagRecorder implements AutoCloseable {
    private static final Duration INTERVAL = Duration.ofMillis(250);

    private final ProgressTable progress;
    private final long start = System.nanoTime();
    private final List<LagSummary.Sample> samples = new ArrayList<>();
    private final Thread thread;
    private volatile boolean stopped;
    private volatile SQLException failure;

    private LagRecorder(ProgressTable progress) {
        this.progress = progress;
        this.thread = new Thread(this::record, "pglane-bench-lag");
        this.thread.setDaemon(true);
    }

    static LagRecorder start(ProgressTable progress) {
        LagRecorder recorder = new LagRecorder(progress);
        recorder.thread.start();
        return recorder;
    }

    private void record() {
        try {
            while (!stopped) {
                Progress now = progress.read();
                if (!now.isNone()) {
                    double at = (System.nanoTime() - start) / 1e9;
                    synchronized (samples) {
                        samples.add(
                                new LagSummary.Sample(at, Math.min(at, now.lag().toNanos() / 1e9)));
                    }
                }
                Thread.sleep(INTERVAL.toMillis());
            }
        } catch (SQLException e) {
            failure = e;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    /** The readings so far; throws if reading the progress failed. */
    List<LagSummary.Sample> samples() throws SQLException {
        if (failure != null) {
            throw failure;
        }
        synchronized (samples) {
            return List.copyOf(samples);
        }
    }

    @Override
    public void close() throws SQLException, InterruptedException {
        stopped = true;
        thread.join(INTERVAL.multipliedBy(20).toMillis());
        progress.close();
    }
}
