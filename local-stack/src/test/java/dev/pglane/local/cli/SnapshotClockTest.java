package dev.pglane.local.cli;

import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.pglane.local.watch.ConnectorMetricsReader;
import dev.pglane.local.watch.PluginMetricsBean;
import java.lang.management.ManagementFactory;
import java.time.Duration;
import java.time.Instant;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import javax.management.MBeanServer;
import javax.management.ObjectName;
import org.junit.jupiter.api.Test;

/** The demo's snapshot clock against MBeans shaped as Connect publishes the sink task's metrics. */
class SnapshotClockTest {
    private final MBeanServer server = ManagementFactory.getPlatformMBeanServer();

    @Test
    void aCompletionReportedJustAfterTheCatchUpIsStillTimed() throws Exception {
        Map<String, Object> sink = new ConcurrentHashMap<>(Map.of("snapshot-complete", 0L));
        ObjectName name = PluginMetricsBean.register(server, "clock-sink", 0, sink);
        try (SnapshotClock clock = SnapshotClock.start(
                new ConnectorMetricsReader(server, "clock-source", "clock-sink", 1), Instant.now())) {
            Thread.sleep(250);
            // the sink commits its last chunk as the caller, having seen it catch up, asks
            sink.put("snapshot-complete", 1L);
            assertTrue(clock.took(Duration.ofSeconds(5)).isPresent(), "the completion a reading later is timed");
        } finally {
            server.unregisterMBean(name);
        }
    }

    @Test
    void aSnapshotNeverReportedIsEmptyAfterTheGrace() throws Exception {
        Map<String, Object> sink = new ConcurrentHashMap<>(Map.of("snapshot-complete", 0L));
        ObjectName name = PluginMetricsBean.register(server, "clock-sink-2", 0, sink);
        try (SnapshotClock clock = SnapshotClock.start(
                new ConnectorMetricsReader(server, "clock-source-2", "clock-sink-2", 1), Instant.now())) {
            assertTrue(clock.took(Duration.ofMillis(300)).isEmpty());
        } finally {
            server.unregisterMBean(name);
        }
    }
}
