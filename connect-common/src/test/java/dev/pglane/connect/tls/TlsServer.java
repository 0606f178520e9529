package dev.pglane.connect.tls;

import dev.pglane.connect.tls.TestPki.Issued;
import io.zonky.test.db.postgres.embedded.EmbeddedPostgres;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.Comparator;
import java.util.stream.Stream;
import org.junit.jupiter.api.extension.AfterAllCallback;
import org.junit.jupiter.api.extension.BeforeAllCallback;
import org.junit.jupiter.api.extension.ExtensionContext;

/**
 * An embedded PostgreSQL 17 that speaks TLS, one per test class ({@code @RegisterExtension static}), with the
 * certificates of a test PKI written to a private directory:
 *
 * <ul>
 *   <li>{@link #caFile()}: the CA that issued the server's certificate (for {@code localhost} and {@code 127.0.0.1})
 *       and the client certificates; the server trusts it for client certificates too;
 *   <li>{@link #otherCaFile()}: an unrelated CA, which verifies nothing here;
 *   <li>{@link #CERT_ROLE}: a role that pg_hba.conf lets in over TLS with a client certificate and nothing else.
 * </ul>
 *
 * <p>The server also listens on 127.0.0.2, an address its certificate does not name.
 */
public final class TlsServer implements BeforeAllCallback, AfterAllCallback {
    /** Logs in only with a client certificate whose CN is its name ({@code cert} in pg_hba.conf). */
    public static final String CERT_ROLE = "cert_user";

    /** An address of this machine that the server's certificate does not list. */
    public static final String UNLISTED_ADDRESS = "127.0.0.2";

    private final String[] setUp;
    private Path dir;
    private Issued ca;
    private EmbeddedPostgres server;

    /** @param setUp statements run as the superuser once the server is up */
    public TlsServer(String... setUp) {
        this.setUp = setUp.clone();
    }

    @Override
    public void beforeAll(ExtensionContext context) throws IOException, SQLException {
        dir = Files.createTempDirectory("pglane-tls");
        ca = TestPki.authority("pglane test CA");
        Issued serverCert = TestPki.server(ca, "localhost", "127.0.0.1");
        KeyFiles.certificates(caFile(), ca.certificate());
        KeyFiles.certificates(otherCaFile(), TestPki.authority("unrelated CA").certificate());
        KeyFiles.certificates(dir.resolve("server.crt"), serverCert.certificate(), ca.certificate());
        KeyFiles.pkcs8Pem(dir.resolve("server.key"), serverCert.keys().getPrivate());
        Files.writeString(dir.resolve("pg_hba.conf"), String.join("\n", hba()));
        server = EmbeddedPostgres.builder()
                .setServerConfig("listen_addresses", "localhost," + UNLISTED_ADDRESS)
                .setServerConfig("ssl", "on")
                .setServerConfig("ssl_cert_file", dir.resolve("server.crt").toString())
                .setServerConfig("ssl_key_file", dir.resolve("server.key").toString())
                .setServerConfig("ssl_ca_file", caFile().toString())
                .setServerConfig("hba_file", dir.resolve("pg_hba.conf").toString())
                // the source's validate() insists on it
                .setServerConfig("wal_level", "logical")
                .start();
        execute("CREATE ROLE " + CERT_ROLE + " LOGIN");
        execute(setUp);
    }

    /**
     * The certificate role only over TLS, only with a certificate; everyone else as the embedded server's default
     * (trust), so the superuser can set up without TLS.
     */
    private static String[] hba() {
        return new String[] {
            "local   all all trust",
            "hostssl all " + CERT_ROLE + " 127.0.0.0/8 cert",
            "hostssl all " + CERT_ROLE + " ::1/128 cert",
            "host    all " + CERT_ROLE + " all reject",
            "host    all all 127.0.0.0/8 trust",
            "host    all all ::1/128 trust",
            ""
        };
    }

    @Override
    public void afterAll(ExtensionContext context) throws IOException {
        try {
            if (server != null) {
                server.close();
            }
        } finally {
            try (Stream<Path> files = Files.walk(dir)) {
                files.sorted(Comparator.reverseOrder()).forEach(TlsServer::delete);
            }
        }
    }

    public int port() {
        return server.getPort();
    }

    /** PEM file with the CA that issued the server's and the clients' certificates. */
    public Path caFile() {
        return dir.resolve("ca.crt");
    }

    /** PEM file with a CA that issued nothing this server uses. */
    public Path otherCaFile() {
        return dir.resolve("other-ca.crt");
    }

    /** A new client certificate for {@code role}, issued by {@link #caFile()}'s CA. */
    public Issued clientCertificate(String role) {
        return TestPki.client(ca, role);
    }

    /** Where a test writes its own files (keys, certificates); deleted with the server. */
    public Path file(String name) {
        return dir.resolve(name);
    }

    /** Runs statements as the superuser, in autocommit mode. */
    public void execute(String... sql) throws SQLException {
        try (Connection c = server.getPostgresDatabase().getConnection();
                Statement st = c.createStatement()) {
            for (String statement : sql) {
                st.execute(statement);
            }
        }
    }

    private static void delete(Path file) {
        try {
            Files.delete(file);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
