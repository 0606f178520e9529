package dev.pglane.connect.metrics;

import org.apache.kafka.common.metrics.Measurable;
import org.apache.kafka.common.metrics.MetricConfig;
import org.apache.kafka.common.metrics.stats.Rate;

/**
 * Events per second over Kafka's sampled windows, recorded from any thread. It keeps its own window
 * settings, so what it records and what it reports agree whatever the registry's defaults are.
 */
public final class RateMeter implements Measurable {
    private final MetricConfig windows = new MetricConfig();
    private final Rate rate = new Rate();

    /** Counts {@code events} now; zero or less counts nothing. */
    public void record(long events) {
        if (events > 0) {
            synchronized (this) {
                rate.record(windows, events, System.currentTimeMillis());
            }
        }
    }

    @Override
    public synchronized double measure(MetricConfig registryConfig, long nowMs) {
        return rate.measure(windows, nowMs);
    }
}
