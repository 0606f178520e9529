package dev.pglane.local.bench.engine;

import com.fasterxml.jackson.databind.ObjectMapper;
import io.debezium.engine.DebeziumEngine;
import io.debezium.engine.RecordChangeEvent;
import io.debezium.engine.format.ChangeEventFormat;
import io.debezium.engine.format.SerializationFormat;
import java.io.IOException;
import java.io.Reader;
import java.lang.management.ManagementFactory;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import org.apache.kafka.connect.source.SourceRecord;

/**
 * One source connector in Debezium's engine, its records handed to a consumer that only counts them (no converter,
 * no Kafka), until the backlog's fence: {@code java -cp <engine class path> dev.pglane.local.bench.engine.NoOpEngine
 * <run.properties> <result.json>}. Run by {@code dev.pglane.local.bench.EngineRun} in a JVM of its own, whose class path
 * holds Debezium's engine and connector (and, for pglane, the packaged plugin's jars), so that neither clashes with
 * the benchmark's Kafka and the JVM's CPU is the connector's and the engine's alone.
 *
 * <p>The properties are the engine's and the connector's, plus {@code bench.connector} (pglane or debezium) and
 * {@code bench.fence.xid}, or {@code bench.snapshot.rows} for an initial snapshot. The result holds the seconds from the engine's start until the fence, the transactions and
 * changes counted, and this JVM's CPU seconds meanwhile.
 */
public final class NoOpEngine {
    public static final String CONNECTOR = "bench.connector";
    public static final String FENCE_XID = "bench.fence.xid";
    /** Instead of a fence: the rows of an initial snapshot, done once that many {@code op = r} records came. */
    public static final String SNAPSHOT_ROWS = "bench.snapshot.rows";

    private static final long TIMEOUT_MINUTES = 30;

    private NoOpEngine() {}

    public static void main(String[] args) throws Exception {
        Properties properties = new Properties();
        try (Reader in = Files.newBufferedReader(Path.of(args[0]))) {
            properties.load(in);
        }
        String connector = (String) properties.remove(CONNECTOR);
        String snapshotRows = (String) properties.remove(SNAPSHOT_ROWS);
        EndWatch watch = snapshotRows != null
                ? new SnapshotReadWatch(Long.parseLong(snapshotRows))
                : EndWatch.of(connector, Long.parseLong((String) properties.remove(FENCE_XID)));
        Map<String, Object> result = run(properties, watch);
        new ObjectMapper().writeValue(Path.of(args[1]).toFile(), result);
        // the engine's and the connector's threads may linger: the result is written, so end here
        System.exit(result.containsKey("error") ? 1 : 0);
    }

    private static Map<String, Object> run(Properties properties, EndWatch watch)
            throws IOException, ReflectiveOperationException, InterruptedException {
        CountDownLatch finished = new CountDownLatch(1);
        AtomicReference<String> failure = new AtomicReference<>();
        long[] fenceSeen = new long[1];
        DebeziumEngine<RecordChangeEvent<SourceRecord>> engine = DebeziumEngine.create(
                        ChangeEventFormat.of(connectFormat()))
                .using(properties)
                .notifying(
                        (List<RecordChangeEvent<SourceRecord>> records,
                                DebeziumEngine.RecordCommitter<RecordChangeEvent<SourceRecord>> committer) -> {
                            for (RecordChangeEvent<SourceRecord> event : records) {
                                watch.accept(event.record());
                                committer.markProcessed(event);
                            }
                            committer.markBatchFinished();
                            if (watch.done() && fenceSeen[0] == 0) {
                                fenceSeen[0] = System.nanoTime();
                                finished.countDown();
                            }
                        })
                .using((success, message, error) -> {
                    if (!watch.done()) {
                        failure.set("the engine stopped before the fence: " + message
                                + (error == null ? "" : " (" + error + ")"));
                        finished.countDown();
                    }
                })
                .build();
        ExecutorService executor = Executors.newSingleThreadExecutor(r -> new Thread(r, "pglane-bench-engine"));
        double cpuBefore = processCpuSeconds();
        long begin = System.nanoTime();
        executor.execute(engine);
        boolean ended = finished.await(TIMEOUT_MINUTES, TimeUnit.MINUTES);
        double cpu = processCpuSeconds() - cpuBefore;
        Map<String, Object> result = new LinkedHashMap<>();
        result.put("transactions", watch.transactions());
        result.put("changes", watch.changes());
        if (!ended) {
            failure.compareAndSet(null, "no fence after " + TIMEOUT_MINUTES + " minutes");
        }
        if (failure.get() != null) {
            result.put("error", failure.get());
        } else {
            result.put("seconds", (fenceSeen[0] - begin) / 1e9);
            result.put("cpu_s", cpu);
        }
        try {
            engine.close();
        } catch (IllegalStateException alreadyShutDown) {
            // the engine stopped by itself (a failed task, or an initial_only snapshot that ended): the result stands,
            // and the JVM must still reach its exit rather than hang on the engine's threads
        }
        executor.shutdown();
        executor.awaitTermination(1, TimeUnit.MINUTES);
        return result;
    }

    /**
     * Debezium's "connect" format (records as the connector made them, no converter), whose class is in
     * debezium-embedded: on this JVM's class path, not on the module's compile class path.
     */
    @SuppressWarnings("unchecked")
    private static Class<SerializationFormat<SourceRecord>> connectFormat() throws ClassNotFoundException {
        return (Class<SerializationFormat<SourceRecord>>) Class.forName("io.debezium.embedded.Connect");
    }

    private static double processCpuSeconds() {
        return ((com.sun.management.OperatingSystemMXBean) ManagementFactory.getOperatingSystemMXBean())
                        .getProcessCpuTime()
                / 1e9;
    }
}
