package dev.pglane.local.bench.snapshot;

import dev.pglane.local.bench.CpuMeter;
import dev.pglane.local.kafka.TopicFormat;
import dev.pglane.local.kafka.TopicReader;
import dev.pglane.local.stack.PostgresNode;
import java.time.Duration;
import java.util.Map;

/**
 * pglane's source connector with {@code snapshot.mode=initial_only}, {@code snapshot.threads} as given, sending the
 * existing rows into Kafka: timed from the connector's creation until the END of the snapshot's last chunk is on the
 * marker topic; the chunks' ENDs must count every row of the source.
 */
final class PglaneKafkaRun {
    private static final Duration TIMEOUT = Duration.ofMinutes(60);
    private static final long STATUS_EVERY_NANOS = 1_000_000_000L;

    private final SnapshotConnectors connectors;
    private final SnapshotData data;
    private final CpuMeter cpu;

    PglaneKafkaRun(SnapshotConnectors connectors, SnapshotData data, PostgresNode source, PostgresNode target) {
        this.connectors = connectors;
        this.data = data;
        this.cpu = new CpuMeter(source, target);
    }

    SnapshotMeasurement measure(SnapshotData.Info info, int threads, int run) throws Exception {
        String name = "snap_kafka_t" + threads + "_" + run;
        String slot = name;
        Map<String, String> config = connectors.source(name, slot, "initial_only", threads);
        SnapshotChunkCount chunks = new SnapshotChunkCount();
        try (TopicReader markers = TopicReader.markersOf(connectors.bootstrapServers(), name, TopicFormat.of(config))) {
            CpuMeter.Reading before = cpu.read();
            long begin = System.nanoTime();
            connectors.rest().putConnectorConfig(name, config);
            long[] lastCheck = {begin};
            markers.readUntil(
                    chunks,
                    () -> {
                        if (System.nanoTime() - lastCheck[0] > STATUS_EVERY_NANOS) {
                            lastCheck[0] = System.nanoTime();
                            connectors.checkRunning(name);
                        }
                        return chunks.done();
                    },
                    TIMEOUT,
                    chunks::toString);
            double seconds = (System.nanoTime() - begin) / 1e9;
            CpuMeter.Reading used = cpu.read().since(before);
            if (chunks.rows() != info.totalRows()) {
                throw new IllegalStateException(
                        "the snapshot's chunks count " + chunks.rows() + " rows; the source has " + info.totalRows());
            }
            return new SnapshotMeasurement(
                    SnapshotSystem.PGLANE_KAFKA,
                    threads,
                    run,
                    seconds,
                    chunks.rows(),
                    info.copyBytes(),
                    used.sourcePg(),
                    null,
                    used.jvm(),
                    null,
                    null,
                    null);
        } finally {
            connectors.removeSource(name, slot, data);
        }
    }
}
