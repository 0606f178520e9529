package dev.pglane.connect.metrics;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.LongAdder;
import java.util.function.Supplier;
import org.apache.kafka.common.MetricName;
import org.apache.kafka.common.metrics.Gauge;
import org.apache.kafka.common.metrics.MetricValueProvider;
import org.apache.kafka.common.metrics.PluginMetrics;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The metrics of one task instance: defined when the task starts, kept here from then on, and published
 * through Connect's plugin metrics all together once their names are free.
 *
 * <p>Names can be taken: Connect gives a task {@code task.shutdown.graceful.timeout.ms} to stop, then
 * starts the next instance of the same task while the old one's thread still runs, and the old
 * instance's plugin metrics stay registered under the same names until that thread ends. So
 * {@link #publish()} registers every metric or none, and the task calls it again until it succeeds.
 * All or none matters: the old instance removes its names when it closes, and must not find one the new
 * instance took.
 *
 * <p>Rates and totals are kept in this set, not in Kafka sensors: sensor names are global to the worker's
 * registry, so two tasks asking for a sensor of the same name would share it, and each would count the
 * other's events and remove the other's metrics when it stops.
 */
public final class TaskMetricSet {
    private static final Logger log = LoggerFactory.getLogger(TaskMetricSet.class);

    private record Definition(MetricName name, MetricValueProvider<?> value) {}

    private final PluginMetrics plugin;
    private final String owner;
    private final List<Definition> definitions = new ArrayList<>();
    private boolean published;
    private boolean waitLogged;

    private TaskMetricSet(PluginMetrics plugin, String owner) {
        this.plugin = plugin;
        this.owner = owner;
    }

    /**
     * @param lookup {@code context::pluginMetrics} of a source or sink task context
     * @param owner the task, as log lines name it
     * @return the set; on a runtime without plugin metrics (before Kafka 4.1) its metrics are kept but
     *     never published
     */
    public static TaskMetricSet of(Supplier<PluginMetrics> lookup, String owner) {
        return new TaskMetricSet(PluginMetricsLookup.of(lookup), owner);
    }

    /** Defines a gauge or other metric read when a reporter asks. */
    public synchronized void define(
            String name, String description, Map<String, String> tags, MetricValueProvider<?> value) {
        if (published) {
            throw new IllegalStateException("Metric " + name + " defined after " + owner + "'s were published");
        }
        if (plugin != null) {
            definitions.add(new Definition(plugin.metricName(name, description, new LinkedHashMap<>(tags)), value));
        }
    }

    /** Defines a long-valued gauge without tags. */
    public void gauge(String name, String description, Supplier<Long> value) {
        define(name, description, Map.of(), (Gauge<Long>) (config, now) -> value.get());
    }

    /** Defines a per-second rate and returns what records into it. */
    public RateMeter rate(String name, String description) {
        RateMeter meter = new RateMeter();
        define(name, description, Map.of(), meter);
        return meter;
    }

    /**
     * Defines {@code <events>-rate}, per second, and {@code <events>-total}, the running total of the same events (for
     * scrapers such as Prometheus, which work out rates themselves), and returns what records into both.
     */
    public RateMeter rateAndTotal(String events, String description) {
        RateMeter meter = rate(events + "-rate", description + " per second");
        define(events + "-total", description + " since the task started", Map.of(), (Gauge<Long>)
                (config, now) -> meter.total());
        return meter;
    }

    /** Defines a running total and returns what adds to it. */
    public LongAdder total(String name, String description) {
        LongAdder total = new LongAdder();
        define(name, description, Map.of(), (Gauge<Long>) (config, now) -> total.sum());
        return total;
    }

    /**
     * Registers every defined metric, or none when a name is still held by the previous instance of
     * this task. Cheap once done; call it from the task's own loop until it returns {@code true}.
     */
    public synchronized boolean publish() {
        if (published) {
            return true;
        }
        if (plugin == null) {
            published = true;
            return true;
        }
        List<MetricName> added = new ArrayList<>(definitions.size());
        try {
            for (Definition d : definitions) {
                plugin.addMetric(d.name(), d.value());
                added.add(d.name());
            }
        } catch (IllegalArgumentException taken) {
            added.forEach(plugin::removeMetric);
            if (!waitLogged) {
                waitLogged = true;
                log.info(
                        "Metrics of {} wait for the previous instance of this task to stop: {}",
                        owner,
                        taken.getMessage());
            }
            return false;
        }
        published = true;
        if (waitLogged) {
            log.info("Metrics of {} published", owner);
        }
        return true;
    }
}
