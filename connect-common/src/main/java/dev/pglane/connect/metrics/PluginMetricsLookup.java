package dev.pglane.connect.metrics;

import java.util.function.Supplier;
import org.apache.kafka.common.metrics.PluginMetrics;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/** Finds a task's plugin metrics, which Connect offers since Kafka 4.1. */
public final class PluginMetricsLookup {
    private static final Logger log = LoggerFactory.getLogger(PluginMetricsLookup.class);

    private PluginMetricsLookup() {}

    /**
     * @param lookup {@code context::pluginMetrics} of a source or sink task context
     * @return the plugin metrics, or {@code null} on an older runtime, whose context lacks the method
     */
    public static PluginMetrics of(Supplier<PluginMetrics> lookup) {
        try {
            return lookup.get();
        } catch (LinkageError e) {
            log.debug("No plugin metrics in this Connect runtime", e);
            return null;
        }
    }
}
