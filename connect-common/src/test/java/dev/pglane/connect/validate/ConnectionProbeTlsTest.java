package dev.pglane.connect.validate;

import static dev.pglane.connect.config.DatabaseSettings.HOST;
import static dev.pglane.connect.config.DatabaseSettings.SSLCERT;
import static dev.pglane.connect.config.DatabaseSettings.SSLKEY;
import static dev.pglane.connect.config.DatabaseSettings.SSLMODE;
import static dev.pglane.connect.config.DatabaseSettings.SSLPASSWORD;
import static dev.pglane.connect.config.DatabaseSettings.SSLROOTCERT;
import static dev.pglane.connect.config.DatabaseSettings.USER;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.pglane.connect.database.DatabaseEndpoint;
import dev.pglane.connect.database.TlsSettings;
import dev.pglane.connect.tls.KeyFiles;
import dev.pglane.connect.tls.TestPki.Issued;
import dev.pglane.connect.tls.TlsServer;
import io.zonky.test.db.postgres.embedded.EmbeddedPostgres;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;
import org.apache.kafka.common.config.types.Password;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;
import org.postgresql.jdbc.SslMode;

/** Each way TLS fails against a real server, reported on the keys the user must change. */
class ConnectionProbeTlsTest {
    @RegisterExtension
    static final TlsServer SERVER = new TlsServer("CREATE ROLE other_role LOGIN");

    private static EmbeddedPostgres plainServer;
    private static Issued client;
    private static String clientCert;
    private static String clientKey;

    @BeforeAll
    static void start() throws IOException {
        plainServer = EmbeddedPostgres.builder().start();
        client = SERVER.clientCertificate(TlsServer.CERT_ROLE);
        clientCert = KeyFiles.certificates(SERVER.file("client.crt"), client.certificate())
                .toString();
        clientKey = KeyFiles.pkcs8Der(SERVER.file("client.pk8"), client.keys().getPrivate())
                .toString();
    }

    @AfterAll
    static void stop() throws IOException {
        plainServer.close();
    }

    /** The problems of a probe with no server checks, message by key. */
    static Map<String, String> problems(String host, int port, String user, TlsSettings tls) {
        DatabaseEndpoint endpoint =
                new DatabaseEndpoint(host, port, "postgres", user, null, tls, Duration.ofSeconds(5));
        return new ConnectionProbe(endpoint, "tls-probe-test")
                .run(List.of()).stream().collect(Collectors.toMap(ConfigProblem::key, ConfigProblem::message));
    }

    static Map<String, String> problems(String user, TlsSettings tls) {
        return problems("localhost", SERVER.port(), user, tls);
    }

    static TlsSettings verifyFull(Object rootCert, Object cert, Object key, String password) {
        return new TlsSettings(
                SslMode.VERIFY_FULL,
                rootCert.toString(),
                cert.toString(),
                key.toString(),
                password == null ? null : new Password(password));
    }

    static void assertKeys(Map<String, String> problems, String... keys) {
        assertEquals(
                List.of(keys).stream().sorted().toList(),
                problems.keySet().stream().sorted().toList(),
                problems.toString());
    }

    @Test
    void theRightCaAndCertificateHaveNoProblems() {
        assertEquals(Map.of(), problems(TlsServer.CERT_ROLE, verifyFull(SERVER.caFile(), clientCert, clientKey, null)));
    }

    @Test
    void aServerCertificateThatTheCaDidNotIssueIsOnSslrootcert() {
        Map<String, String> problems = problems("postgres", verifyFull(SERVER.otherCaFile(), "", "", null));
        assertKeys(problems, SSLROOTCERT);
        assertTrue(
                problems.get(SSLROOTCERT)
                        .startsWith("The certificate of PostgreSQL at localhost:" + SERVER.port()
                                + " does not pass the check against the CA certificates in " + SERVER.otherCaFile()
                                + " (database.sslrootcert): SSL error: PKIX path building failed"),
                problems.toString());
    }

    @Test
    void aHostTheCertificateDoesNotNameIsOnHostAndSslrootcert() {
        Map<String, String> problems = problems(
                TlsServer.UNLISTED_ADDRESS, SERVER.port(), "postgres", verifyFull(SERVER.caFile(), "", "", null));
        assertKeys(problems, HOST, SSLROOTCERT);
        assertTrue(
                problems.get(HOST)
                        .startsWith("The certificate of PostgreSQL at 127.0.0.2:" + SERVER.port()
                                + " is not issued for '127.0.0.2', and database.sslmode=verify_full checks the name"),
                problems.toString());
    }

    @Test
    void aMissingCaFileIsOnSslrootcert() {
        Map<String, String> problems = problems("postgres", verifyFull(SERVER.file("absent.crt"), "", "", null));
        assertKeys(problems, SSLROOTCERT);
        assertTrue(problems.get(SSLROOTCERT).startsWith("Cannot read the CA certificates of database.sslrootcert: "));
    }

    @ParameterizedTest
    @EnumSource(
            value = SslMode.class,
            names = {"REQUIRE", "VERIFY_CA", "VERIFY_FULL"})
    void aServerWithoutTlsIsOnSslmodeWhenTheModeRequiresTls(SslMode mode) {
        TlsSettings tls = new TlsSettings(mode, SERVER.caFile().toString(), "", "", null);
        Map<String, String> problems = problems("localhost", plainServer.getPort(), "postgres", tls);
        assertKeys(problems, SSLMODE);
        assertTrue(
                problems.get(SSLMODE)
                        .contains(" does not offer TLS, and database.sslmode="
                                + mode.name().toLowerCase() + " requires it"),
                problems.toString());
    }

    @Test
    void noClientCertificateForTheCertificateRoleIsOnSslcertAndUser() {
        Map<String, String> problems = problems(TlsServer.CERT_ROLE, verifyFull(SERVER.caFile(), "", "", null));
        assertKeys(problems, SSLCERT, USER);
        assertTrue(
                problems.get(SSLCERT)
                        .contains("refused user 'cert_user' with no client certificate configured: "
                                + "FATAL: connection requires a valid client certificate"),
                problems.toString());
    }

    @Test
    void aCertificateOfAnotherRoleIsOnSslcertAndUser() {
        Issued other = SERVER.clientCertificate("other_role");
        Path cert = KeyFiles.certificates(SERVER.file("other.crt"), other.certificate());
        Path key = KeyFiles.pkcs8Der(SERVER.file("other.pk8"), other.keys().getPrivate());
        Map<String, String> problems = problems(TlsServer.CERT_ROLE, verifyFull(SERVER.caFile(), cert, key, null));
        assertKeys(problems, SSLCERT, USER);
        assertTrue(problems.get(USER).contains("certificate authentication failed for user"), problems.toString());
    }

    @Test
    void aMissingCertificateFileIsOnSslcert() {
        Map<String, String> problems =
                problems(TlsServer.CERT_ROLE, verifyFull(SERVER.caFile(), SERVER.file("absent.crt"), clientKey, null));
        assertKeys(problems, SSLCERT);
        assertTrue(problems.get(SSLCERT).startsWith("Cannot read the client certificate of database.sslcert: "));
    }

    /** OpenSSL's traditional RSA key, under both names pgjdbc reads differently, and a key file that is absent. */
    @Test
    void keysPgjdbcCannotReadAreOnSslkey() {
        for (String name : List.of("traditional.key", "traditional.pem", "absent.pk8")) {
            Path key = SERVER.file(name);
            if (!name.startsWith("absent")) {
                KeyFiles.traditionalPem(key, client.keys().getPrivate());
            }
            Map<String, String> problems =
                    problems(TlsServer.CERT_ROLE, verifyFull(SERVER.caFile(), clientCert, key, null));
            assertKeys(problems, SSLKEY);
            assertTrue(
                    problems.get(SSLKEY).startsWith("Cannot read the client key of database.sslkey"),
                    problems.toString());
        }
    }

    @Test
    void aKeyOthersMayReadIsOnSslkey() throws IOException {
        Path key = KeyFiles.pkcs8Pem(SERVER.file("readable.pem"), client.keys().getPrivate());
        Files.setPosixFilePermissions(key, PosixFilePermissions.fromString("rw-r--r--"));
        Map<String, String> problems =
                problems(TlsServer.CERT_ROLE, verifyFull(SERVER.caFile(), clientCert, key, null));
        assertKeys(problems, SSLKEY);
        assertTrue(problems.get(SSLKEY).contains("has group or world access"), problems.toString());
    }

    /** A wrong password, none, or an encryption pgjdbc cannot undo (OpenSSL 3's default PBES2). */
    @Test
    void keysThatDoNotOpenAreOnSslkeyAndSslpassword() {
        Path encrypted = KeyFiles.encryptedPkcs8Der(
                SERVER.file("encrypted.pk8"), client.keys().getPrivate(), "right");
        Path pbes2 =
                KeyFiles.pbes2Pkcs8Der(SERVER.file("pbes2.pk8"), client.keys().getPrivate(), "right");
        Path keystore = KeyFiles.pkcs12(SERVER.file("client.p12"), client, "right");
        List<TlsSettings> attempts = List.of(
                verifyFull(SERVER.caFile(), clientCert, encrypted, "wrong"),
                verifyFull(SERVER.caFile(), clientCert, encrypted, null),
                verifyFull(SERVER.caFile(), clientCert, pbes2, "right"),
                verifyFull(SERVER.caFile(), "", keystore, "wrong"),
                verifyFull(SERVER.caFile(), "", keystore, null));
        for (TlsSettings tls : attempts) {
            Map<String, String> problems = problems(TlsServer.CERT_ROLE, tls);
            assertKeys(problems, SSLKEY, SSLPASSWORD);
            assertTrue(
                    problems.get(SSLPASSWORD)
                            .startsWith("Cannot open the client key of database.sslkey with database.sslpassword"),
                    tls + ": " + problems);
        }
    }
}
