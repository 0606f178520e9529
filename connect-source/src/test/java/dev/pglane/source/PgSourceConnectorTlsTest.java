package dev.pglane.source;

import static dev.pglane.docs.ValidationErrors.assertOn;
import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.pglane.connect.config.DatabaseSettings;
import dev.pglane.connect.tls.KeyFiles;
import dev.pglane.connect.tls.TestPki.Issued;
import dev.pglane.connect.tls.TlsServer;
import dev.pglane.docs.ValidationErrors;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/** The source's validate() against a PostgreSQL that speaks TLS and logs its role in by certificate. */
class PgSourceConnectorTlsTest {
    /** A superuser, so that the default publication (FOR ALL TABLES) passes too; it logs in by certificate only. */
    @RegisterExtension
    static final TlsServer SERVER = new TlsServer("ALTER ROLE " + TlsServer.CERT_ROLE + " SUPERUSER REPLICATION");

    private static String clientCert;
    private static String clientKey;

    @BeforeAll
    static void issueClientCertificate() {
        Issued client = SERVER.clientCertificate(TlsServer.CERT_ROLE);
        clientCert = KeyFiles.certificates(SERVER.file("source.crt"), client.certificate())
                .toString();
        clientKey = KeyFiles.pkcs8Pem(SERVER.file("source.pem"), client.keys().getPrivate())
                .toString();
    }

    static Map<String, String> config() {
        Map<String, String> props = new HashMap<>();
        props.put("name", "tls-source");
        props.put(PgSourceConfig.TOPIC_PREFIX, "pglane");
        props.put(DatabaseSettings.HOST, "127.0.0.1");
        props.put(DatabaseSettings.PORT, Integer.toString(SERVER.port()));
        props.put(DatabaseSettings.NAME, "postgres");
        props.put(DatabaseSettings.USER, TlsServer.CERT_ROLE);
        props.put(DatabaseSettings.SSLMODE, "verify_full");
        props.put(DatabaseSettings.SSLROOTCERT, SERVER.caFile().toString());
        props.put(DatabaseSettings.SSLCERT, clientCert);
        props.put(DatabaseSettings.SSLKEY, clientKey);
        return props;
    }

    static Map<String, List<String>> errors(Map<String, String> props) {
        return ValidationErrors.byKey(new PgSourceConnector().validate(props));
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
        assertOn(errors, DatabaseSettings.SSLROOTCERT, "does not pass the check against the CA certificates in");
    }

    @Test
    void aHostTheCertificateDoesNotNameIsReportedOnHost() {
        Map<String, String> props = config();
        props.put(DatabaseSettings.HOST, TlsServer.UNLISTED_ADDRESS);
        Map<String, List<String>> errors = errors(props);
        assertEquals(Set.of(DatabaseSettings.HOST, DatabaseSettings.SSLROOTCERT), errors.keySet(), errors.toString());
        assertOn(errors, DatabaseSettings.HOST, "is not issued for '127.0.0.2'");
    }

    @Test
    void withoutTheCertificateTheRoleIsRefusedOnSslcertAndUser() {
        Map<String, String> props = config();
        props.remove(DatabaseSettings.SSLCERT);
        props.remove(DatabaseSettings.SSLKEY);
        Map<String, List<String>> errors = errors(props);
        assertEquals(Set.of(DatabaseSettings.SSLCERT, DatabaseSettings.USER), errors.keySet(), errors.toString());
        assertOn(errors, DatabaseSettings.USER, "connection requires a valid client certificate");
    }
}
