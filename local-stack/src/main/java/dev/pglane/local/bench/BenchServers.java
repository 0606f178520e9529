package dev.pglane.local.bench;

import dev.pglane.local.stack.PostgresNode;
import dev.pglane.local.stack.PostgresVersion;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * The PostgreSQL servers of the benchmarks, tuned like the reference figures' (shared/reference/baseline-figures.md)
 * so that ratios to them mean something: a large buffer cache, asynchronous commit (the rate of WAL decoding and
 * apply, not of fsync), no autovacuum during the measured phases, checkpoints far apart.
 */
public final class BenchServers {
    /** The tuning, in words, for the reports. */
    public static final String TUNING = "shared_buffers 512MB, synchronous_commit off, autovacuum off";

    private BenchServers() {}

    /**
     * A source server with logical decoding.
     *
     * @param slots the replication slots (and walsenders) it must allow at once
     */
    public static PostgresNode source(String name, PostgresVersion version, Path workDir, int slots) {
        Map<String, String> settings = tuning();
        settings.put("max_replication_slots", Integer.toString(Math.max(10, slots)));
        settings.put("max_wal_senders", Integer.toString(Math.max(10, slots)));
        return PostgresNode.start(name, version, workDir, PostgresNode.WalLevel.LOGICAL, settings);
    }

    /**
     * A target server: what a subscriber applies to. Room for the replication origins of 32 apply sessions (each of
     * pglane's takes one, {@code apply.origin}): four table groups of the example's workers need 16, over the 10 the
     * server has by default.
     */
    public static PostgresNode target(String name, PostgresVersion version, Path workDir) {
        Map<String, String> settings = tuning();
        settings.put(version.major() >= 18 ? "max_active_replication_origins" : "max_replication_slots", "32");
        return PostgresNode.start(name, version, workDir, PostgresNode.WalLevel.REPLICA, settings);
    }

    private static Map<String, String> tuning() {
        Map<String, String> settings = new LinkedHashMap<>();
        settings.put("shared_buffers", "512MB");
        settings.put("synchronous_commit", "off");
        settings.put("autovacuum", "off");
        settings.put("max_wal_size", "4GB");
        return settings;
    }
}
