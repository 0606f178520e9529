package dev.pglane.it;

import dev.pglane.local.stack.PostgresNode;
import dev.pglane.local.stack.PostgresVersion;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.extension.AfterAllCallback;
import org.junit.jupiter.api.extension.ExtensionContext;

/**
 * Source servers (wal_level=logical) of a test class, one per major of {@code pglane.pg.versions}, each started on
 * first use and shared by the tests of that major; for sink tests, likewise a target server per major. Stopped, and
 * their data deleted, after the class.
 *
 * <pre>{@code
 * @RegisterExtension static final SourceServers servers = new SourceServers();
 *
 * @ParameterizedTest @MethodSource("dev.pglane.it.SourceServers#versions")
 * void test(PostgresVersion version) { PostgresNode source = servers.of(version); ... }
 * }</pre>
 */
final class SourceServers implements AfterAllCallback {
    private final Map<PostgresVersion, PostgresNode> servers = new EnumMap<>(PostgresVersion.class);
    private final Map<PostgresVersion, PostgresNode> targets = new EnumMap<>(PostgresVersion.class);
    private final Map<PostgresVersion, PostgresNode> others = new EnumMap<>(PostgresVersion.class);
    private Path workDir;

    /** The majors the version-matrix tests run on. */
    static List<PostgresVersion> versions() {
        return PostgresVersion.listFromProperty();
    }

    /**
     * The default major only ({@code pglane.pg.version}), for tests of the connector's own scale that do not depend
     * on the server's version and cost too much to repeat on every major in CI.
     */
    static List<PostgresVersion> defaultVersion() {
        return List.of(PostgresVersion.fromProperty());
    }

    synchronized PostgresNode of(PostgresVersion version) {
        return servers.computeIfAbsent(
                version, v -> PostgresNode.start("source" + v.major(), v, workDir(), PostgresNode.WalLevel.LOGICAL));
    }

    /** A second source server of {@code version}, another PostgreSQL system than {@link #of}'s. */
    synchronized PostgresNode another(PostgresVersion version) {
        return others.computeIfAbsent(
                version, v -> PostgresNode.start("other" + v.major(), v, workDir(), PostgresNode.WalLevel.LOGICAL));
    }

    /** A target server (plain {@code replica} WAL) of {@code version}, for a sink to apply to. */
    synchronized PostgresNode targetOf(PostgresVersion version) {
        return targets.computeIfAbsent(
                version, v -> PostgresNode.start("target" + v.major(), v, workDir(), PostgresNode.WalLevel.REPLICA));
    }

    private Path workDir() {
        if (workDir == null) {
            try {
                workDir = Files.createTempDirectory("pglane-sources-");
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        }
        return workDir;
    }

    @Override
    public synchronized void afterAll(ExtensionContext context) throws IOException {
        try {
            targets.values().forEach(PostgresNode::close);
            others.values().forEach(PostgresNode::close);
            servers.values().forEach(PostgresNode::close);
        } finally {
            targets.clear();
            others.clear();
            servers.clear();
            if (workDir != null) {
                SharedWorker.deleteRecursively(workDir);
                workDir = null;
            }
        }
    }
}
