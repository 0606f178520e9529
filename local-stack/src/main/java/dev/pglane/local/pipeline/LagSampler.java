package dev.pglane.local.pipeline;

import java.sql.SQLException;
import java.time.Duration;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Reads a sink's progress row every half second on a thread of its own and keeps the greatest lag seen: how long
 * before each reading the last applied transaction had committed on the source (see {@link Progress#lag()}).
 * Meaningful while the source keeps committing and until the sink has caught up; stop it then.
 */
public final class LagSampler implements AutoCloseable {
    private static final Logger log = LoggerFactory.getLogger(LagSampler.class);
    private static final Duration INTERVAL = Duration.ofMillis(500);

    private final Pipeline pipeline;
    private final Thread thread;
    private ProgressTable progress;
    private volatile boolean stopped;
    private volatile Duration maxLag = Duration.ZERO;
    private volatile long samples;
    private volatile long missed;

    private LagSampler(Pipeline pipeline, ProgressTable progress) {
        this.pipeline = pipeline;
        this.progress = progress;
        this.thread = new Thread(this::sample, "pglane-lag-sampler");
        this.thread.setDaemon(true);
    }

    /** Starts sampling the progress of the pipeline's sink. */
    public static LagSampler start(Pipeline pipeline) throws SQLException {
        LagSampler sampler = new LagSampler(pipeline, open(pipeline));
        sampler.thread.start();
        return sampler;
    }

    private static ProgressTable open(Pipeline pipeline) throws SQLException {
        return ProgressTable.open(pipeline.targetJdbcUrl(), pipeline.progressTable(), pipeline.sinkName());
    }

    private void sample() {
        try {
            while (!stopped) {
                readOnce();
                Thread.sleep(INTERVAL.toMillis());
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    /** One reading; while the target is unreachable (a restart, a cut), readings are missed, not fatal. */
    private void readOnce() {
        try {
            if (progress == null) {
                progress = open(pipeline);
            }
            Progress now = progress.read();
            if (!now.isNone() && now.lag().compareTo(maxLag) > 0) {
                maxLag = now.lag();
            }
            samples++;
        } catch (SQLException e) {
            missed++;
            log.debug("cannot read the sink's progress now; trying again", e);
            closeProgress();
        }
    }

    private void closeProgress() {
        if (progress != null) {
            try {
                progress.close();
            } catch (SQLException e) {
                log.debug("closing a broken progress session", e);
            }
            progress = null;
        }
    }

    /** The greatest lag among the readings with progress; zero before the sink applied anything. */
    public Duration maxLag() {
        return maxLag;
    }

    public long samples() {
        return samples;
    }

    /** Readings that could not reach the target. */
    public long missed() {
        return missed;
    }

    /** Stops sampling and closes the session; the figures stay readable. */
    @Override
    public void close() throws SQLException {
        stopped = true;
        thread.interrupt();
        try {
            thread.join(INTERVAL.multipliedBy(10).toMillis());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        closeProgress();
    }
}
