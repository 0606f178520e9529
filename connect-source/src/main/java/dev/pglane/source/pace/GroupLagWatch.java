package dev.pglane.source.pace;

import java.time.Duration;
import java.util.Locale;
import java.util.Map;
import org.apache.kafka.common.TopicPartition;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Reads a consumer group's lag every {@link #INTERVAL} on a thread of its own and holds the snapshot's new chunks while
 * it amounts to more than the limit in time ({@link LagWindow}). The group is the sink's: Connect commits a sink's
 * offsets once the sink reports them applied (every {@code offset.flush.interval.ms} of its worker), so its lag is
 * what the sink has still to apply, as of its last commit. When the lag cannot be read (Kafka unreachable, the group
 * not described), the snapshot goes on unpaced and a WARN says so, at most once a minute: pacing protects the
 * stream's latency, and is not worth stopping for.
 */
public final class GroupLagWatch implements SnapshotPace, AutoCloseable {
    private static final Logger log = LoggerFactory.getLogger(GroupLagWatch.class);
    static final Duration INTERVAL = Duration.ofMillis(500);
    private static final Duration WARN_EVERY = Duration.ofMinutes(1);

    /**
     * @param group the consumer group whose lag paces the snapshot
     * @param maxLag the lag, in time at the group's recent rate, above which new chunks wait
     * @param adminOverrides settings of the admin client that reads the lag (security, for one)
     */
    public record Settings(
            String connectorName,
            String group,
            String bootstrapServers,
            Duration maxLag,
            Map<String, Object> adminOverrides) {}

    /**
     * The group's lag as read once.
     *
     * @param records records left to consume on the partitions it has committed on
     * @param committed its committed offsets: none while it has committed nothing (not started, or misnamed)
     */
    record Reading(long records, Map<TopicPartition, Long> committed) {}

    /** Reads the group's lag; throws when Kafka cannot tell. */
    interface LagReader extends AutoCloseable {
        Reading read() throws Exception;

        @Override
        void close();
    }

    private final Settings settings;
    private final LagReader reader;
    private final Duration interval;
    private final Thread thread;
    private final LagWindow window = new LagWindow();
    private final long startNanos = System.nanoTime();
    /** The records left as last read; -1 while unknown. */
    private volatile long records = -1;
    /** The records the group consumed a second lately ({@link LagWindow#rate}); NaN while unknown. */
    private volatile double rate = Double.NaN;

    private volatile boolean closed;
    private long lastWarnNanos;
    /** What was said of a group without commits: nothing (0), the INFO (1), the WARN too (2); -1 once it committed. */
    private int toldUncommitted;

    private GroupLagWatch(Settings settings, LagReader reader, Duration interval) {
        this.settings = settings;
        this.reader = reader;
        this.interval = interval;
        this.thread = new Thread(this::run, "pglane-" + settings.connectorName() + "-snapshot-pace");
        thread.setDaemon(true);
    }

    public static GroupLagWatch start(Settings settings) {
        return start(settings, new AdminLagReader(settings), INTERVAL);
    }

    static GroupLagWatch start(Settings settings, LagReader reader, Duration interval) {
        GroupLagWatch watch = new GroupLagWatch(settings, reader, interval);
        watch.thread.start();
        log.info(
                "pglane source {}: the snapshot is paced by consumer group {}: new chunks wait while what it has left"
                        + " to consume amounts to more than {} ms of what it consumed lately",
                settings.connectorName(),
                settings.group(),
                settings.maxLag().toMillis());
        return watch;
    }

    @Override
    public boolean holds(long outstandingRecords) {
        return LagWindow.holds(
                records, rate, outstandingRecords, settings.maxLag().toNanos() / 1e9);
    }

    @Override
    public String describe() {
        long left = records;
        double consumed = rate;
        String time = Double.isNaN(consumed) || left < 0
                ? "not yet timed"
                : consumed == 0
                        ? "with nothing consumed for seconds"
                        : String.format(Locale.ROOT, "about %.1f s of what it consumed lately", left / consumed);
        return "consumer group " + settings.group() + " has "
                + (left < 0 ? "an unknown number of" : String.valueOf(left)) + " records to consume, " + time
                + " (new chunks wait above " + settings.maxLag().toMillis() + " ms)";
    }

    private void run() {
        try {
            while (!closed) {
                read();
                Thread.sleep(interval.toMillis());
            }
        } catch (InterruptedException e) {
            // closing
        } finally {
            reader.close();
        }
    }

    private void read() throws InterruptedException {
        try {
            Reading reading = reader.read();
            window.add(System.nanoTime(), reading.committed());
            // a group without commits has no rate: the snapshot starts cautiously rather than all at once
            rate = reading.committed().isEmpty() ? Double.NaN : window.rate();
            records = reading.records();
            if (reading.committed().isEmpty()) {
                tellUncommitted();
            } else {
                toldUncommitted = -1;
            }
        } catch (InterruptedException e) {
            throw e;
        } catch (Exception e) {
            records = -1;
            long now = System.nanoTime();
            if (!closed && (lastWarnNanos == 0 || now - lastWarnNanos >= WARN_EVERY.toNanos())) {
                lastWarnNanos = now;
                log.warn(
                        "pglane source {}: cannot read the lag of consumer group {}, so the snapshot goes on unpaced"
                                + " until it can: {}",
                        settings.connectorName(),
                        settings.group(),
                        e.toString());
            }
        }
    }

    /**
     * A group that has committed nothing gives no rate, and the snapshot goes one chunk at a time: say so once, and warn
     * once if it stays so for a minute (a misnamed group, a sink that never started).
     */
    private void tellUncommitted() {
        if (toldUncommitted == 0) {
            toldUncommitted = 1;
            log.info(
                    "pglane source {}: consumer group {} has committed no offset yet; the snapshot sends one chunk at"
                            + " a time until it has",
                    settings.connectorName(),
                    settings.group());
        } else if (toldUncommitted == 1 && System.nanoTime() - startNanos >= WARN_EVERY.toNanos()) {
            toldUncommitted = 2;
            log.warn(
                    "pglane source {}: consumer group {} has committed no offset in a minute, so the snapshot still"
                            + " sends one chunk at a time; is it the sink's (connect-<sink connector name>) and does the"
                            + " sink run?",
                    settings.connectorName(),
                    settings.group());
        }
    }

    @Override
    public void close() {
        closed = true;
        thread.interrupt();
    }
}
