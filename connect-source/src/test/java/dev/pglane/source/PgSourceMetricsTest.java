package dev.pglane.source;

import static org.junit.jupiter.api.Assertions.assertDoesNotThrow;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.pglane.source.seal.RefusedMessages;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.stream.Collectors;
import org.apache.kafka.common.MetricName;
import org.apache.kafka.common.metrics.Metrics;
import org.apache.kafka.common.metrics.PluginMetrics;
import org.apache.kafka.common.metrics.internals.PluginMetricsImpl;
import org.apache.kafka.connect.source.SourceTaskContext;
import org.apache.kafka.connect.storage.OffsetStorageReader;
import org.junit.jupiter.api.Test;

class PgSourceMetricsTest {
    /**
     * A task context whose plugin metrics are {@code metrics} ({@code null} for none), or, for a runtime before
     * Kafka 4.1, one without {@code pluginMetrics()} at all.
     */
    private record Context(PluginMetrics metrics, boolean beforeKafka41) implements SourceTaskContext {
        Context(PluginMetrics metrics) {
            this(metrics, false);
        }

        @Override
        public Map<String, String> configs() {
            return Map.of();
        }

        @Override
        public OffsetStorageReader offsetStorageReader() {
            throw new UnsupportedOperationException();
        }

        @Override
        public PluginMetrics pluginMetrics() {
            if (beforeKafka41) {
                throw new AbstractMethodError("SourceTaskContext.pluginMetrics");
            }
            return metrics;
        }
    }

    @Test
    void registersAFixedListOfNamesTaggedOnlyByLane() {
        try (Metrics registry = new Metrics()) {
            PgSourceMetrics.create(
                            new Context(new PluginMetricsImpl(registry, Map.of("task", "0"))),
                            "t",
                            2,
                            new RefusedMessages())
                    .publish();
            Set<String> names = registry.metrics().keySet().stream()
                    .filter(n -> n.group().equals("plugins"))
                    .map(PgSourceMetricsTest::describe)
                    .collect(Collectors.toCollection(TreeSet::new));
            assertEquals(
                    new TreeSet<>(List.of(
                            "decoder-busy-ratio{lane=0}",
                            "decoder-busy-ratio{lane=1}",
                            "flushed-lsn",
                            "lag-bytes",
                            "lane-queue-depth{lane=0}",
                            "lane-queue-depth{lane=1}",
                            "reader-busy-ratio",
                            "received-lsn",
                            "records-rate",
                            "records-total",
                            "server-wal-lsn",
                            "slot-retained-wal-bytes",
                            "slot-safe-wal-bytes",
                            "snapshot-chunks-sent",
                            "snapshot-held-ms",
                            "snapshot-rows-estimated",
                            "snapshot-rows-sent",
                            "snapshot-seconds-left",
                            "snapshot-tables",
                            "snapshot-tables-done",
                            "transactions-rate",
                            "transactions-total",
                            "wal-messages-refused-total")),
                    names);
        }
    }

    private static String describe(MetricName name) {
        String lane = name.tags().get("lane");
        return name.name() + (lane == null ? "" : "{lane=" + lane + "}");
    }

    @Test
    void ratesAndBusyRatiosFollowWhatIsReported() {
        try (Metrics registry = new Metrics()) {
            PgSourceMetrics metrics = PgSourceMetrics.create(
                    new Context(new PluginMetricsImpl(registry, Map.of("task", "0"))), "t", 1, new RefusedMessages());
            metrics.publish();
            metrics.recordsEmitted(500);
            metrics.committed();
            metrics.decoded(0, Long.MAX_VALUE / 4);
            assertTrue(value(registry, "records-rate") > 0);
            assertTrue(value(registry, "transactions-rate") > 0);
            assertEquals(500.0, value(registry, "records-total"));
            assertEquals(1.0, value(registry, "transactions-total"));
            assertEquals(1.0, value(registry, "decoder-busy-ratio"), "capped at the whole time");
            assertEquals(0.0, value(registry, "reader-busy-ratio"));
            assertEquals(0.0, value(registry, "flushed-lsn"), "no session yet");
        }
    }

    private static double value(Metrics registry, String name) {
        return registry.metrics().entrySet().stream()
                .filter(e -> e.getKey().name().equals(name))
                .mapToDouble(e -> ((Number) e.getValue().metricValue()).doubleValue())
                .findFirst()
                .orElseThrow();
    }

    @Test
    void withoutPluginMetricsEveryHookIsInert() {
        for (SourceTaskContext context : List.of(new Context(null), new Context(null, true))) {
            assertDoesNotThrow(() -> {
                PgSourceMetrics metrics = PgSourceMetrics.create(context, "t", 1, new RefusedMessages());
                metrics.publish();
                metrics.recordsEmitted(10);
                metrics.committed();
                metrics.busy(5);
                metrics.decoded(0, 5);
            });
        }
    }
}
