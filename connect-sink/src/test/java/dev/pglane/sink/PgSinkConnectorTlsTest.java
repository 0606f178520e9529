package dev.pglane.sink;

import static dev.pglane.docs.ValidationErrors.assertOn;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.pglane.connect.config.DatabaseSettings;
import dev.pglane.connect.logging.LogCapture;
import dev.pglane.connect.tls.KeyFiles;
import dev.pglane.connect.tls.TlsServer;
import dev.pglane.docs.ValidationErrors;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.apache.kafka.common.config.Config;
import org.apache.kafka.common.config.ConfigValue;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/** The sink's validate() and start() against a PostgreSQL that speaks TLS and logs its role in by certificate. */
class PgSinkConnectorTlsTest {
    @RegisterExtension
    static final TlsServer SERVER = new TlsServer(
            "GRANT SET ON PARAMETER session_replication_role TO " + TlsServer.CERT_ROLE,
            "GRANT CREATE ON SCHEMA public TO " + TlsServer.CERT_ROLE,
            "GRANT EXECUTE ON FUNCTION pg_replication_origin_create(text), pg_replication_origin_session_setup(text)"
                    + " TO " + TlsServer.CERT_ROLE);

    private static final String KEY_PASSWORD = "p12-s3cret-9731";
    private static Path keystore;

    @BeforeAll
    static void issueClientKeystore() {
        keystore =
                KeyFiles.pkcs12(SERVER.file("sink.p12"), SERVER.clientCertificate(TlsServer.CERT_ROLE), KEY_PASSWORD);
    }

    /** The certificate role under verify_full: no database.password, the key in a PKCS-12 keystore. */
    static Map<String, String> config() {
        Map<String, String> props = new HashMap<>();
        props.put("name", "tls-sink");
        props.put("topics.regex", "pglane\\..*");
        props.put(PgSinkConfig.SOURCE_TOPIC_PREFIX, "pglane");
        props.put(DatabaseSettings.HOST, "localhost");
        props.put(DatabaseSettings.PORT, Integer.toString(SERVER.port()));
        props.put(DatabaseSettings.NAME, "postgres");
        props.put(DatabaseSettings.USER, TlsServer.CERT_ROLE);
        props.put(DatabaseSettings.SSLMODE, "verify_full");
        props.put(DatabaseSettings.SSLROOTCERT, SERVER.caFile().toString());
        props.put(DatabaseSettings.SSLKEY, keystore.toString());
        props.put(DatabaseSettings.SSLPASSWORD, KEY_PASSWORD);
        return props;
    }

    /** The warnings about a TLS mode that does not authenticate the server. */
    static List<String> tlsWarnings(LogCapture logs) {
        return logs.warnings().stream()
                .filter(w -> w.contains("does not authenticate the server"))
                .toList();
    }

    static Map<String, List<String>> errors(Map<String, String> props) {
        return ValidationErrors.byKey(new PgSinkConnector().validate(props));
    }

    @Test
    void theCertificateRoleValidatesUnderVerifyFull() {
        assertEquals(Map.of(), errors(config()));
    }

    @Test
    void aCaThatDidNotIssueTheServersCertificateIsReportedOnSslrootcert() {
        Map<String, String> props = config();
        props.put(DatabaseSettings.SSLROOTCERT, SERVER.otherCaFile().toString());
        Map<String, List<String>> errors = errors(props);
        assertEquals(Set.of(DatabaseSettings.SSLROOTCERT), errors.keySet(), errors.toString());
        assertOn(
                errors,
                DatabaseSettings.SSLROOTCERT,
                "The certificate of PostgreSQL at localhost:" + SERVER.port()
                        + " does not pass the check against the CA certificates in " + SERVER.otherCaFile());
    }

    @Test
    void aWrongKeyPasswordIsReportedOnSslpassword() {
        Map<String, String> props = config();
        props.put(DatabaseSettings.SSLPASSWORD, "not-" + KEY_PASSWORD);
        assertOn(errors(props), DatabaseSettings.SSLPASSWORD, "Cannot open the client key of database.sslkey");
    }

    /** Validation and the connector's start log a warning for require; the key password appears nowhere. */
    @Test
    void requireIsWarnedAboutAndTheKeyPasswordIsNeverLoggedOrShown() {
        Map<String, String> props = config();
        props.put(DatabaseSettings.SSLMODE, "require");
        String warning = "Connector 'tls-sink': database.sslmode=require does not authenticate the server";
        try (LogCapture logs = LogCapture.start()) {
            Config result = new PgSinkConnector().validate(props);
            assertEquals(Map.of(), ValidationErrors.byKey(result));
            assertEquals(1, tlsWarnings(logs).size(), logs.lines().toString());
            assertTrue(
                    tlsWarnings(logs).get(0).contains(warning), logs.warnings().toString());
            for (ConfigValue value : result.configValues()) {
                assertFalse(String.valueOf(value.value()).contains(KEY_PASSWORD), value.name());
            }

            new PgSinkConnector().start(props);
            assertEquals(2, tlsWarnings(logs).size(), logs.lines().toString());
            assertTrue(
                    tlsWarnings(logs).get(1).contains(warning), logs.warnings().toString());
            String logged = String.join("\n", logs.lines());
            assertTrue(logged.contains("database.sslpassword = [hidden]"), logged);
            assertFalse(logged.contains(KEY_PASSWORD), logged);
        }
    }

    @Test
    void verifyFullIsNotWarnedAbout() {
        try (LogCapture logs = LogCapture.start()) {
            new PgSinkConnector().validate(config());
            new PgSinkConnector().start(config());
            assertEquals(List.of(), tlsWarnings(logs));
        }
    }
}
