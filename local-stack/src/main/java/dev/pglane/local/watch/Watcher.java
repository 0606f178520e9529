package dev.pglane.local.watch;

import java.io.IOException;
import java.time.Duration;
import java.util.function.Supplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/** Reads the pipeline's metrics once a second on a thread of its own and shows them, until closed. */
public final class Watcher implements AutoCloseable {
    private static final Logger log = LoggerFactory.getLogger(Watcher.class);
    public static final Duration INTERVAL = Duration.ofSeconds(1);

    private final ConnectorMetricsReader metrics;
    private final ViewOutput output;
    private final Thread thread;
    private volatile Supplier<String> status;
    private volatile boolean stopped;
    private volatile IOException lost;
    private boolean closed;

    private Watcher(ConnectorMetricsReader metrics, ViewOutput output, Supplier<String> status) {
        this.metrics = metrics;
        this.output = output;
        this.status = status;
        this.thread = new Thread(this::loop, "pglane-watcher");
        this.thread.setDaemon(true);
    }

    /** Starts showing the pipeline; {@code status} is asked at each frame for its first line. */
    public static Watcher start(ConnectorMetricsReader metrics, ViewOutput output, Supplier<String> status) {
        Watcher watcher = new Watcher(metrics, output, status);
        watcher.thread.start();
        return watcher;
    }

    /** What the pipeline is doing, from the next frame on. */
    public void status(Supplier<String> next) {
        status = next;
    }

    /**
     * Blocks until the watcher stops: the metrics could no longer be read (the watched JVM went away), returned, or
     * it was closed, {@code null}.
     */
    public IOException awaitLost() throws InterruptedException {
        thread.join();
        return lost;
    }

    private void loop() {
        try {
            while (!stopped) {
                showOnce();
                Thread.sleep(INTERVAL.toMillis());
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } catch (IOException e) {
            lost = e;
        }
    }

    /** One frame; a metric that cannot be read now is logged and the frame skipped, the next one tries again. */
    private void showOnce() throws IOException {
        try {
            output.show(status.get(), metrics.read());
        } catch (IllegalStateException e) {
            log.warn("cannot read the connectors' metrics now", e);
        }
    }

    /** Shows one last frame, then stops; the last frame stays on the screen. Once; later calls do nothing. */
    @Override
    public synchronized void close() {
        if (closed) {
            return;
        }
        closed = true;
        stopped = true;
        thread.interrupt();
        try {
            thread.join(INTERVAL.multipliedBy(5).toMillis());
            if (lost == null) {
                showOnce();
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } catch (IOException e) {
            log.debug("the last frame could not be read", e);
        }
        output.finish();
    }
}
