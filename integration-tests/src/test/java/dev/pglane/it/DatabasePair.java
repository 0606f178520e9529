package dev.pglane.it;

import dev.pglane.local.stack.PostgresNode;
import dev.pglane.local.stack.PostgresVersion;
import java.nio.file.Path;

/** A source server with logical decoding and a target server (plain {@code replica} WAL), both of one major. */
public record DatabasePair(PostgresNode source, PostgresNode target) implements AutoCloseable {

    public static DatabasePair start(PostgresVersion version, Path workDir) {
        Path dir = workDir.resolve("pg" + version.major());
        PostgresNode source = PostgresNode.start("source", version, dir, PostgresNode.WalLevel.LOGICAL);
        try {
            return new DatabasePair(source, PostgresNode.start("target", version, dir, PostgresNode.WalLevel.REPLICA));
        } catch (RuntimeException e) {
            source.close();
            throw e;
        }
    }

    @Override
    public void close() {
        try {
            target.close();
        } finally {
            source.close();
        }
    }
}
