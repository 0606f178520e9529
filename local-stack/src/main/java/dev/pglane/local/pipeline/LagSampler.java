package dev.pglane.local.pipeline;

import java.sql.SQLException;
import java.time.Duration;
import java.time.Instant;
import org.HdrHistogram.Histogram;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Reads a sink's progress row four times a second on a thread of its own and keeps the distribution of the lag
 * readings: how long before each reading the last applied transaction had committed on the source (see {@link
 * Progress#lag()}). Meaningful while the source keeps committing; once it stops, call {@link #stopCounting()}, since
 * later readings grow with the idle time alone.
 */
public final class LagSampler implements AutoCloseable {
    private static final Logger log = LoggerFactory.getLogger(LagSampler.class);
    private static final Duration INTERVAL = Duration.ofMillis(250);
    /** Readings up to an hour, to 3 significant digits. */
    private static final long HIGHEST_MILLIS = Duration.ofHours(1).toMillis();

    private final Pipeline pipeline;
    private final Instant since;
    private final Thread thread;
    private final Histogram millis = new Histogram(HIGHEST_MILLIS, 3);
    private ProgressTable progress;
    private volatile boolean stopped;
    private volatile boolean counting = true;
    private volatile long missed;

    private LagSampler(Pipeline pipeline, ProgressTable progress, Instant since) {
        this.pipeline = pipeline;
        this.progress = progress;
        this.since = since;
        this.thread = new Thread(this::sample, "pglane-lag-sampler");
        this.thread.setDaemon(true);
    }

    /** Starts sampling the progress of the pipeline's sink; readings before it applied anything are not counted. */
    public static LagSampler start(Pipeline pipeline) throws SQLException {
        return start(pipeline, null);
    }

    /**
     * Starts sampling the progress of the pipeline's sink; until it has applied a transaction, a reading counts the
     * time since {@code since} (the source's first commit), or nothing when {@code since} is null.
     */
    public static LagSampler start(Pipeline pipeline, Instant since) throws SQLException {
        LagSampler sampler = new LagSampler(pipeline, open(pipeline), since);
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
            Duration lag = now.isNone() ? (since == null ? null : Duration.between(since, Instant.now())) : now.lag();
            if (lag != null && counting) {
                record(lag);
            }
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

    private synchronized void record(Duration lag) {
        millis.recordValue(Math.min(Math.max(lag.toMillis(), 0), HIGHEST_MILLIS));
    }

    /** Readings from now on are taken but not counted: the source stopped committing. */
    public void stopCounting() {
        counting = false;
    }

    /** The greatest lag among the readings counted; zero before any. */
    public synchronized Duration maxLag() {
        return Duration.ofMillis(millis.getMaxValue());
    }

    /** The lag that {@code percentile} percent of the readings counted stayed at or under; zero before any. */
    public synchronized Duration percentile(double percentile) {
        return Duration.ofMillis(millis.getValueAtPercentile(percentile));
    }

    /** Readings counted. */
    public synchronized long samples() {
        return millis.getTotalCount();
    }

    /** How often the sampler reads. */
    public static Duration interval() {
        return INTERVAL;
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
