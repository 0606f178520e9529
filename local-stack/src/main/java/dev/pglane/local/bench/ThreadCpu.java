package dev.pglane.local.bench;

import java.lang.management.ManagementFactory;
import java.lang.management.ThreadInfo;
import java.lang.management.ThreadMXBean;
import java.util.HashMap;
import java.util.Map;
import java.util.TreeMap;

/**
 * CPU time of this JVM's threads, grouped by what they do, for the profile of where the connector's time goes.
 * A thread that ends between two snapshots loses its time; the pipeline's threads live as long as the task.
 */
final class ThreadCpu {
    static final String TASK_THREAD = "connect task thread (converters; source: poll, send; sink: put)";
    static final String PRODUCER_NETWORK = "producer network thread";

    private static final ThreadMXBean THREADS = ManagementFactory.getThreadMXBean();

    private final Map<Long, Long> nanosById;
    private final Map<Long, String> namesById;

    private ThreadCpu(Map<Long, Long> nanosById, Map<Long, String> namesById) {
        this.nanosById = nanosById;
        this.namesById = namesById;
    }

    static ThreadCpu snapshot() {
        Map<Long, Long> nanos = new HashMap<>();
        Map<Long, String> names = new HashMap<>();
        for (ThreadInfo info : THREADS.getThreadInfo(THREADS.getAllThreadIds())) {
            if (info != null) {
                long cpu = THREADS.getThreadCpuTime(info.getThreadId());
                if (cpu >= 0) {
                    nanos.put(info.getThreadId(), cpu);
                    names.put(info.getThreadId(), info.getThreadName());
                }
            }
        }
        return new ThreadCpu(nanos, names);
    }

    /** CPU seconds per group between {@code earlier} and this snapshot. */
    Map<String, Double> secondsSince(ThreadCpu earlier) {
        Map<String, Double> groups = new TreeMap<>();
        nanosById.forEach((id, nanos) -> {
            long delta = nanos - earlier.nanosById.getOrDefault(id, 0L);
            groups.merge(group(namesById.get(id)), delta / 1e9, Double::sum);
        });
        return groups;
    }

    /**
     * pglane's own threads are named {@code pglane-<connector>-<role>}, except the benchmark's proxy's; Connect runs the converters and a source's
     * {@code poll()} and {@code producer.send}, or a sink's consumer poll and {@code put()}, on the task thread; the producer's I/O has its own thread; the rest is the broker,
     * the worker's housekeeping and this benchmark.
     */
    private static String group(String name) {
        if (name.startsWith("pglane-proxy-")) {
            return "benchmark's TCP proxy (latency stage)";
        }
        if (name.startsWith("pglane-")) {
            String role = name.replaceAll("-\\d+$", "");
            return pglane(role.substring(role.lastIndexOf('-') + 1));
        }
        if (name.startsWith("task-thread-")) {
            return TASK_THREAD;
        }
        if (name.startsWith("kafka-producer-network-thread")) {
            return PRODUCER_NETWORK;
        }
        if (name.startsWith("data-plane-kafka") || name.startsWith("kafka-") || name.contains("broker")) {
            return "kafka broker";
        }
        return "other";
    }

    /** The group of pglane's threads named {@code pglane-<connector>-<role>} or {@code pglane-<connector>-<role>-<i>}. */
    static String pglane(String role) {
        return "pglane " + role;
    }
}
