package dev.pglane.local.cli;

import dev.pglane.local.watch.ConnectorMetricsReader;
import java.io.IOException;
import java.time.Duration;
import java.time.Instant;
import java.util.Optional;

/**
 * Times the source's snapshot from the connectors' creation to the moment the sink reports its last chunk committed
 * ({@code snapshot-complete}), read every 100 ms from the connectors' metrics on a thread of its own.
 */
final class SnapshotClock implements AutoCloseable {
    private static final long POLL_MILLIS = 100;

    private final ConnectorMetricsReader metrics;
    private final Instant from;
    private final Thread thread;
    private volatile Duration took;
    private volatile boolean stopped;

    private SnapshotClock(ConnectorMetricsReader metrics, Instant from) {
        this.metrics = metrics;
        this.from = from;
        this.thread = new Thread(this::poll, "pglane-demo-snapshot-clock");
        this.thread.setDaemon(true);
    }

    /** @param from when the connectors were created */
    static SnapshotClock start(ConnectorMetricsReader metrics, Instant from) {
        SnapshotClock clock = new SnapshotClock(metrics, from);
        clock.thread.start();
        return clock;
    }

    private void poll() {
        try {
            while (!stopped && took == null) {
                if (complete()) {
                    took = Duration.between(from, Instant.now());
                    return;
                }
                Thread.sleep(POLL_MILLIS);
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    /** A reading that fails (a task restarting) is taken as "not yet". */
    private boolean complete() {
        try {
            return metrics.sinkSnapshotComplete();
        } catch (IOException | RuntimeException e) {
            return false;
        }
    }

    /**
     * From the connectors' creation to the snapshot's last chunk on the target, waiting up to {@code grace} for the
     * sink to report it: when that chunk is the last thing the sink applies, a caller that saw the sink catch up asks
     * within a reading of its commit. Empty when it is not reported by then.
     */
    Optional<Duration> took(Duration grace) throws InterruptedException {
        thread.join(Math.max(1, grace.toMillis())); // join(0) would wait for ever
        return Optional.ofNullable(took);
    }

    @Override
    public void close() {
        stopped = true;
        thread.interrupt();
    }
}
