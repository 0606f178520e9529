package dev.pglane.source.pgoutput.capture;

import io.zonky.test.db.postgres.embedded.PgBinaryResolver;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Path;
import java.util.Locale;
import java.util.jar.JarFile;
import java.util.zip.ZipEntry;

/**
 * Takes PostgreSQL from one zonky binaries jar given by path, so the capture tool can start any major without
 * that jar being a dependency. A record, because zonky caches unpacked binaries by resolver equality.
 */
record JarPgBinaryResolver(Path jar) implements PgBinaryResolver {

    @Override
    public InputStream getPgBinary(String system, String machineHardware) throws IOException {
        String archive =
                String.format("postgres-%s-%s.txz", system, machineHardware).toLowerCase(Locale.ROOT);
        try (JarFile file = new JarFile(jar.toFile())) {
            ZipEntry entry = file.getEntry(archive);
            if (entry == null) {
                throw new IOException(jar + " holds no " + archive);
            }
            try (InputStream in = file.getInputStream(entry)) {
                // Read fully: the stream must outlive the jar file, which is closed here.
                return new ByteArrayInputStream(in.readAllBytes());
            }
        }
    }
}
