package dev.pglane.connect.metrics;

import java.util.concurrent.atomic.LongAdder;
import org.apache.kafka.common.metrics.Measurable;
import org.apache.kafka.common.metrics.MetricConfig;
import org.apache.kafka.common.metrics.stats.Rate;

/**
 * Events per second over Kafka's sampled windows, recorded from any thread, and their running total. It keeps its own
 * window settings, so what it records and what it reports agree whatever the registry's defaults are.
 */
public final class RateMeter implements Measurable {
    private final MetricConfig windows = new MetricConfig();
    private final Rate rate = new Rate();
    private final LongAdder total = new LongAdder();

    /** Counts {@code events} now; zero or less counts nothing. */
    public void record(long events) {
        if (events > 0) {
            total.add(events);
            synchronized (this) {
                rate.record(windows, events, System.currentTimeMillis());
            }
        }
    }

    /** Every event recorded so far. */
    public long total() {
        return total.sum();
    }

    @Override
    public synchronized double measure(MetricConfig registryConfig, long nowMs) {
        return rate.measure(windows, nowMs);
    }
}
