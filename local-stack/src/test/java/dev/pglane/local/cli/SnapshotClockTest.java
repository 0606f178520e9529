package dev.pglane.local.cli;

import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.pglane.local.watch.ConnectorMetricsReader;
import dev.pglane.local.watch.PluginMetricsBean;
import java.lang.management.ManagementFactory;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import javax.management.MBeanServer;
import javax.management.ObjectName;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** The demo's snapshot clock against MBeans shaped as Connect publishes the sink task's metrics. */
class SnapshotClockTest {
    private final MBeanServer server = ManagementFactory.getPlatformMBeanServer();
    private final List<ObjectName> registered = new ArrayList<>();

    @AfterEach
    void unregister() throws Exception {
        for (ObjectName name : registered) {
            server.unregisterMBean(name);
        }
    }

    @Test
    void aCompletionReportedJustAfterTheCatchUpIsStillTimed() throws Exception {
        Map<String, Object> sink = new ConcurrentHashMap<>(Map.of("snapshot-complete", 0L));
        try (SnapshotClock clock = clockOver("clock-sink", sink)) {
            // the sink commits its last chunk as the caller, having seen it catch up, asks: before the clock's next
            // reading, which comes up to 100 ms later
            sink.put("snapshot-complete", 1L);
            assertTrue(clock.took(Duration.ofSeconds(5)).isPresent(), "the completion a reading later is timed");
        }
    }

    @Test
    void aSnapshotNeverReportedIsEmptyAfterTheGrace() throws Exception {
        try (SnapshotClock clock = clockOver("clock-sink-2", Map.of("snapshot-complete", 0L))) {
            assertTrue(clock.took(Duration.ofMillis(300)).isEmpty());
        }
    }

    /** A clock started now over the metrics of sink {@code sink}'s one task, {@code metrics}. */
    private SnapshotClock clockOver(String sink, Map<String, Object> metrics) throws Exception {
        registered.add(PluginMetricsBean.register(server, sink, 0, metrics));
        return SnapshotClock.start(new ConnectorMetricsReader(server, sink + "-source", sink, 1), Instant.now());
    }
}
