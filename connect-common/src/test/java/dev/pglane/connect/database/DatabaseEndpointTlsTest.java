package dev.pglane.connect.database;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.pglane.connect.tls.KeyFiles;
import dev.pglane.connect.tls.TestPki.Issued;
import dev.pglane.connect.tls.TlsServer;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.Properties;
import org.apache.kafka.common.config.types.Password;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.postgresql.jdbc.SslMode;

/** Sessions to a real PostgreSQL over TLS: the server authenticated by its CA, the client by its certificate. */
class DatabaseEndpointTlsTest {
    @RegisterExtension
    static final TlsServer SERVER = new TlsServer("ALTER ROLE " + TlsServer.CERT_ROLE + " REPLICATION");

    private static final String KEY_PASSWORD = "k3y-pa55";
    private static Path clientCert;
    private static Issued client;

    @BeforeAll
    static void issueClientCertificate() {
        client = SERVER.clientCertificate(TlsServer.CERT_ROLE);
        clientCert = KeyFiles.certificates(SERVER.file("client.crt"), client.certificate());
    }

    static DatabaseEndpoint endpoint(String host, String user, TlsSettings tls) {
        return new DatabaseEndpoint(host, SERVER.port(), "postgres", user, null, tls, Duration.ofSeconds(10));
    }

    static TlsSettings verifyFull(Path rootCert) {
        return new TlsSettings(SslMode.VERIFY_FULL, rootCert.toString(), "", "", null);
    }

    /** ssl, the client certificate's DN and current_user of the session, from the server's view. */
    static String session(DatabaseEndpoint endpoint) throws SQLException {
        return session(endpoint, new Properties());
    }

    static String session(DatabaseEndpoint endpoint, Properties extra) throws SQLException {
        try (Connection c = endpoint.connect("tls-test", extra);
                Statement st = c.createStatement();
                ResultSet rs = st.executeQuery("SELECT ssl, client_dn, current_user, current_setting('search_path')"
                        + " FROM pg_stat_ssl WHERE pid = pg_backend_pid()")) {
            assertTrue(rs.next());
            return rs.getBoolean(1) + " " + rs.getString(2) + " " + rs.getString(3) + " " + rs.getString(4);
        }
    }

    /** A server that stops answering is noticed: a read waits at most the socket timeout, then the connection fails. */
    @Test
    void aReadWaitsNoLongerThanTheSocketTimeout() throws SQLException {
        DatabaseEndpoint bounded =
                endpoint("localhost", "postgres", verifyFull(SERVER.caFile())).withSocketTimeout(Duration.ofSeconds(1));
        try (Connection c = bounded.connect("socket-timeout-test", new Properties());
                Statement st = c.createStatement()) {
            long started = System.nanoTime();
            SQLException e = assertThrows(SQLException.class, () -> st.execute("SELECT pg_catalog.pg_sleep(20)"));
            long seconds = (System.nanoTime() - started) / 1_000_000_000L;
            assertTrue(seconds < 10, "failed after " + seconds + " s: " + e.getMessage());
            assertTrue(c.isClosed(), "a timed-out read closes the connection: " + e.getMessage());
        }
    }

    @ParameterizedTest
    @ValueSource(strings = {"localhost", "127.0.0.1"})
    void verifyFullWithTheServersCaIsATlsSession(String host) throws SQLException {
        assertEquals(
                "true null postgres " + DatabaseEndpoint.PINNED_SEARCH_PATH,
                session(endpoint(host, "postgres", verifyFull(SERVER.caFile()))));
    }

    @Test
    void aCaThatDidNotIssueTheServersCertificateIsRefused() {
        DatabaseEndpoint endpoint = endpoint("localhost", "postgres", verifyFull(SERVER.otherCaFile()));
        SQLException e = assertThrows(SQLException.class, () -> session(endpoint));
        assertTrue(e.getMessage().contains("PKIX path building failed"), e.getMessage());
    }

    /** 127.0.0.2 reaches the server but is not in its certificate: verify_full refuses it, verify_ca does not. */
    @Test
    void onlyVerifyFullChecksTheHostName() throws SQLException {
        String host = TlsServer.UNLISTED_ADDRESS;
        SQLException e = assertThrows(
                SQLException.class, () -> session(endpoint(host, "postgres", verifyFull(SERVER.caFile()))));
        assertTrue(e.getMessage().contains("could not be verified"), e.getMessage());
        TlsSettings verifyCa =
                new TlsSettings(SslMode.VERIFY_CA, SERVER.caFile().toString(), "", "", null);
        assertTrue(session(endpoint(host, "postgres", verifyCa)).startsWith("true "));
    }

    @Test
    void theCertificateRoleNeedsACertificate() {
        DatabaseEndpoint endpoint = endpoint("localhost", TlsServer.CERT_ROLE, verifyFull(SERVER.caFile()));
        SQLException e = assertThrows(SQLException.class, () -> session(endpoint));
        assertEquals("28000", e.getSQLState(), e.getMessage());
    }

    /** Every key format the database.sslkey doc promises, with no database.password. */
    @ParameterizedTest
    @ValueSource(strings = {"client.pk8", "client.der", "client.pem", "client-pem.key", "client-encrypted.pk8"})
    void theCertificateRoleLogsInWithItsCertificateAndKey(String keyFile) throws SQLException {
        Path key = SERVER.file(keyFile);
        boolean encrypted = keyFile.contains("encrypted");
        if (encrypted) {
            KeyFiles.encryptedPkcs8Der(key, client.keys().getPrivate(), KEY_PASSWORD);
        } else if (keyFile.endsWith(".pem") || keyFile.endsWith(".key")) {
            KeyFiles.pkcs8Pem(key, client.keys().getPrivate());
        } else {
            KeyFiles.pkcs8Der(key, client.keys().getPrivate());
        }
        TlsSettings tls = new TlsSettings(
                SslMode.VERIFY_FULL,
                SERVER.caFile().toString(),
                clientCert.toString(),
                key.toString(),
                encrypted ? new Password(KEY_PASSWORD) : null);
        assertEquals(
                "true /CN=cert_user cert_user " + DatabaseEndpoint.PINNED_SEARCH_PATH,
                session(endpoint("localhost", TlsServer.CERT_ROLE, tls)));
    }

    /**
     * The source's reader connects with extra properties (a logical replication session, its own options); the TLS
     * settings and the client certificate stay.
     */
    @Test
    void extraPropertiesKeepTheTlsSettings() throws SQLException {
        Path key =
                KeyFiles.pkcs8Der(SERVER.file("replication.pk8"), client.keys().getPrivate());
        TlsSettings tls = new TlsSettings(
                SslMode.VERIFY_FULL, SERVER.caFile().toString(), clientCert.toString(), key.toString(), null);
        Properties replication = new Properties();
        replication.setProperty("replication", "database");
        replication.setProperty("preferQueryMode", "simple");
        replication.setProperty("options", "-c statement_timeout=0");
        assertEquals(
                "true /CN=cert_user cert_user " + DatabaseEndpoint.PINNED_SEARCH_PATH,
                session(endpoint("localhost", TlsServer.CERT_ROLE, tls), replication));
    }

    /** A PKCS-12 keystore holds the certificate too, so database.sslcert stays empty; one without a password opens. */
    @ParameterizedTest
    @ValueSource(strings = {KEY_PASSWORD, ""})
    void theCertificateRoleLogsInWithAPkcs12Keystore(String password) throws SQLException {
        Path keystore = KeyFiles.pkcs12(SERVER.file("client.p12"), client, password);
        TlsSettings tls = new TlsSettings(
                SslMode.VERIFY_FULL,
                SERVER.caFile().toString(),
                "",
                keystore.toString(),
                password.isEmpty() ? null : new Password(password));
        assertEquals(
                "true /CN=cert_user cert_user " + DatabaseEndpoint.PINNED_SEARCH_PATH,
                session(endpoint("localhost", TlsServer.CERT_ROLE, tls)));
    }
}
