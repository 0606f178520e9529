package dev.pglane.it;

import dev.pglane.it.stack.PostgresNode;
import dev.pglane.it.stack.PostgresVersion;
import java.nio.file.Path;
import java.util.EnumMap;
import java.util.Map;

/**
 * Source servers (wal_level=logical) of a test class, one per major, each started on first use and shared by the
 * tests of that major.
 */
final class SourceServers implements AutoCloseable {
    private final Map<PostgresVersion, PostgresNode> servers = new EnumMap<>(PostgresVersion.class);

    synchronized PostgresNode of(PostgresVersion version, Path workDir) {
        return servers.computeIfAbsent(
                version, v -> PostgresNode.start("source" + v.major(), v, workDir, PostgresNode.WalLevel.LOGICAL));
    }

    @Override
    public synchronized void close() {
        servers.values().forEach(PostgresNode::close);
        servers.clear();
    }
}
