package dev.pglane.local.watch;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.pglane.wire.Lsn;
import java.lang.management.ManagementFactory;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import javax.management.MBeanServer;
import javax.management.ObjectName;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** The reader against MBeans named and shaped as Connect publishes a task's plugin metrics. */
class ConnectorMetricsReaderTest {
    private final MBeanServer server = ManagementFactory.getPlatformMBeanServer();
    private final List<ObjectName> registered = new ArrayList<>();

    @AfterEach
    void unregister() throws Exception {
        for (ObjectName name : registered) {
            server.unregisterMBean(name);
        }
    }

    @Test
    void emptyUntilBothConnectorsHaveATask() throws Exception {
        task("src", 0, Map.of("server-wal-lsn", 100L));
        assertTrue(reader().read().isEmpty());
    }

    @Test
    void sumsRatesOverTasksAndTakesTheNewestPositions() throws Exception {
        task(
                "src",
                0,
                Map.of(
                        "server-wal-lsn",
                        0x500L,
                        "received-lsn",
                        0x600L,
                        "transactions-rate",
                        10.0,
                        "records-rate",
                        50.0));
        task(
                "snk",
                0,
                Map.of(
                        "applied-lsn", 0x400L,
                        "lag-ms", 900L,
                        "transactions-rate", 4.0,
                        "rows-rate", 16.0,
                        "busy-workers", 2L,
                        "buffered-transactions", 5L));
        task(
                "snk",
                1,
                Map.of(
                        "applied-lsn", 0x300L,
                        "lag-ms", 1500L,
                        "transactions-rate", 2.0,
                        "rows-rate", Double.NaN,
                        "busy-workers", 1L));

        PipelineReading reading = reader().read().orElseThrow();

        assertEquals(Lsn.valueOf(0x600), reading.sourceLsn(), "the newer of keepalive and last message");
        assertEquals(Lsn.valueOf(0x400), reading.appliedLsn());
        assertEquals(1500, reading.lagMs());
        assertEquals(10.0, reading.sourceTxPerSecond());
        assertEquals(40.0, reading.sourceRowsPerSecond(), "records less one commit marker per transaction");
        assertEquals(6.0, reading.targetTxPerSecond());
        assertEquals(16.0, reading.targetRowsPerSecond(), "a rate not yet known counts as nothing");
        assertEquals(3, reading.busyWorkers());
        assertEquals(8, reading.applyWorkers());
        assertEquals(5, reading.bufferedTransactions(), "a metric a task lacks counts as nothing");
    }

    private ConnectorMetricsReader reader() {
        return new ConnectorMetricsReader(server, "src", "snk", 8);
    }

    private void task(String connector, int task, Map<String, Object> attributes) throws Exception {
        registered.add(PluginMetricsBean.register(server, connector, task, attributes));
    }
}
