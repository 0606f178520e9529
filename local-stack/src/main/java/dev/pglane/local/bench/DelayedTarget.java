package dev.pglane.local.bench;

import dev.pglane.local.fault.TcpProxy;
import dev.pglane.local.stack.PostgresNode;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * The target as pglane's sink sees it across zones: reached through a {@link TcpProxy} that holds every chunk for a
 * delay each way, so that every round trip costs twice the delay. The latency stage of {@code bench} and
 * {@code bench-sink --latency-us} run the sink through it: how far parallel apply hides a target's round-trip time.
 * Only the sink's connection goes through it; PostgreSQL's subscriber applies inside the target server and is not
 * delayed.
 */
final class DelayedTarget implements AutoCloseable {
    /** The name in {@code report.json} of a sink stage behind the proxy. */
    static final String STAGE = "sink_latency";

    private final TcpProxy proxy;
    private final Duration delay;

    private DelayedTarget(TcpProxy proxy, Duration delay) {
        this.proxy = proxy;
        this.delay = delay;
    }

    /** Starts the proxy in front of {@code target}. */
    static DelayedTarget start(PostgresNode target, Duration delay) {
        return new DelayedTarget(TcpProxy.start(target.host(), target.port(), delay), delay);
    }

    /** {@code sinkSettings} with the sink pointed at the proxy instead of the target. */
    Map<String, String> sinkSettings(Map<String, String> sinkSettings) {
        Map<String, String> settings = new LinkedHashMap<>(sinkSettings);
        settings.put("database.host", proxy.host());
        settings.put("database.port", Integer.toString(proxy.port()));
        return settings;
    }

    /** For a report's environment line. */
    String describe() {
        return "pglane's sink reaches the target through a proxy holding each chunk " + delay.toNanos() / 1000
                + " µs each way.";
    }

    @Override
    public void close() {
        proxy.close();
    }
}
