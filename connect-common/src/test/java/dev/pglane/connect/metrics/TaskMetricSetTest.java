package dev.pglane.connect.metrics;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.atomic.LongAdder;
import org.apache.kafka.common.MetricName;
import org.apache.kafka.common.metrics.Metrics;
import org.apache.kafka.common.metrics.PluginMetrics;
import org.apache.kafka.common.metrics.internals.PluginMetricsImpl;
import org.junit.jupiter.api.Test;

class TaskMetricSetTest {
    private static final Map<String, String> TASK_0 = Map.of("connector", "c", "task", "0");
    private static final Map<String, String> TASK_1 = Map.of("connector", "c", "task", "1");

    /** A task instance: a rate, a total and a gauge, like the connectors' own sets. */
    private record Instance(TaskMetricSet set, RateMeter rate, LongAdder total) {
        static Instance of(PluginMetrics plugin) {
            TaskMetricSet set = TaskMetricSet.of(() -> plugin, "task c-0");
            RateMeter rate = set.rate("events-rate", "Events per second");
            LongAdder total = set.total("events-total", "Events");
            set.gauge("position", "A position", () -> 42L);
            return new Instance(set, rate, total);
        }
    }

    @Test
    void theNextInstanceOfATaskPublishesOnceThePreviousOneHasClosedAndKeepsWhatItCountedMeanwhile() throws Exception {
        try (Metrics registry = new Metrics()) {
            PluginMetricsImpl previousPlugin = new PluginMetricsImpl(registry, TASK_0);
            Instance previous = Instance.of(previousPlugin);
            assertTrue(previous.set().publish());
            previous.total().add(5);

            Instance next = Instance.of(new PluginMetricsImpl(registry, TASK_0));
            next.total().add(7);
            assertFalse(next.set().publish(), "the previous instance still holds the names");
            assertEquals(5.0, value(registry, "events-total", "0"), "the previous instance's metric is untouched");

            previousPlugin.close();
            assertTrue(next.set().publish());
            assertTrue(next.set().publish(), "publishing twice is harmless");
            assertEquals(7.0, value(registry, "events-total", "0"));
            assertEquals(42.0, value(registry, "position", "0"));
        }
    }

    @Test
    void aNameTakenHalfWayLeavesNothingRegistered() throws Exception {
        try (Metrics registry = new Metrics()) {
            PluginMetricsImpl holder = new PluginMetricsImpl(registry, TASK_0);
            holder.addMetric(holder.metricName("position", "held", new LinkedHashMap<>()), new RateMeter());

            Instance next = Instance.of(new PluginMetricsImpl(registry, TASK_0));
            assertFalse(next.set().publish());
            assertEquals(1, pluginMetricCount(registry), "events-rate and events-total were taken back");

            holder.close();
            assertTrue(next.set().publish());
            assertEquals(3, pluginMetricCount(registry));
        }
    }

    @Test
    void twoTasksOfOneWorkerCountOnlyTheirOwnEventsAndStopWithoutRemovingTheOthers() throws Exception {
        try (Metrics registry = new Metrics()) {
            PluginMetricsImpl firstPlugin = new PluginMetricsImpl(registry, TASK_0);
            Instance first = Instance.of(firstPlugin);
            Instance second = Instance.of(new PluginMetricsImpl(registry, TASK_1));
            assertTrue(first.set().publish());
            assertTrue(second.set().publish());

            first.rate().record(1_000);
            assertTrue(value(registry, "events-rate", "0") > 0);
            assertEquals(0.0, value(registry, "events-rate", "1"));

            firstPlugin.close();
            second.rate().record(1_000);
            assertTrue(value(registry, "events-rate", "1") > 0);
            assertEquals(3, pluginMetricCount(registry));
        }
    }

    @Test
    void aRateAndItsTotalCountTheSameEvents() throws Exception {
        try (Metrics registry = new Metrics()) {
            TaskMetricSet set = TaskMetricSet.of(() -> new PluginMetricsImpl(registry, TASK_0), "task c-0");
            RateMeter rows = set.rateAndTotal("rows", "Rows applied");
            assertTrue(set.publish());
            rows.record(40);
            rows.record(2);
            rows.record(0);
            assertEquals(42.0, value(registry, "rows-total", "0"));
            assertTrue(value(registry, "rows-rate", "0") > 0);
        }
    }

    @Test
    void withoutPluginMetricsEverythingIsKeptAndNothingPublished() {
        Instance alone = Instance.of(null);
        alone.rate().record(3);
        alone.total().add(3);
        assertTrue(alone.set().publish());
        assertEquals(3, alone.total().sum());
    }

    private static double value(Metrics registry, String name, String task) {
        return registry.metrics().entrySet().stream()
                .filter(e -> e.getKey().name().equals(name)
                        && task.equals(e.getKey().tags().get("task")))
                .mapToDouble(e -> ((Number) e.getValue().metricValue()).doubleValue())
                .findFirst()
                .orElseThrow(() -> new AssertionError(name + " of task " + task + " is not registered"));
    }

    private static long pluginMetricCount(Metrics registry) {
        return registry.metrics().keySet().stream()
                .map(MetricName::group)
                .filter("plugins"::equals)
                .count();
    }
}
