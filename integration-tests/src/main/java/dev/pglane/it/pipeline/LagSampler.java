package dev.pglane.it.pipeline;

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

    private final ProgressTable progress;
    private final Thread thread;
    private volatile boolean stopped;
    private volatile Duration maxLag = Duration.ZERO;
    private volatile long samples;

    private LagSampler(ProgressTable progress) {
        this.progress = progress;
        this.thread = new Thread(this::sample, "pglane-lag-sampler");
        this.thread.setDaemon(true);
    }

    /** Starts sampling the progress of the pipeline's sink. */
    public static LagSampler start(Pipeline pipeline) throws SQLException {
        LagSampler sampler = new LagSampler(
                ProgressTable.open(pipeline.targetJdbcUrl(), pipeline.progressTable(), pipeline.sinkName()));
        sampler.thread.start();
        return sampler;
    }

    private void sample() {
        try {
            while (!stopped) {
                Progress now = progress.read();
                if (!now.isNone() && now.lag().compareTo(maxLag) > 0) {
                    maxLag = now.lag();
                }
                samples++;
                Thread.sleep(INTERVAL.toMillis());
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } catch (SQLException e) {
            log.warn("cannot read the sink's progress any more; the lag figures stop here", e);
        }
    }

    /** The greatest lag among the readings with progress; zero before the sink applied anything. */
    public Duration maxLag() {
        return maxLag;
    }

    public long samples() {
        return samples;
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
        progress.close();
    }
}
