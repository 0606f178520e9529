package dev.pglane.connect.database;

import java.util.Objects;
import java.util.Properties;
import org.apache.kafka.common.config.types.Password;
import org.postgresql.jdbc.SslMode;

/**
 * How a session protects itself (the {@code database.ssl*} keys), in pgjdbc terms. An empty file name leaves pgjdbc
 * its default under {@code ~/.postgresql} of the worker's user. {@link Password#toString()} hides the key password,
 * so the record is safe to log.
 *
 * @param mode how much TLS to insist on, and whether to check the server's certificate
 * @param rootCert the CA certificates the server's certificate must chain to (verify-ca, verify-full)
 * @param cert the client certificate, for servers that authenticate clients by certificate
 * @param key the private key of {@code cert}, or a PKCS-12 keystore holding both
 * @param keyPassword the password of an encrypted {@code key}; null if it has none
 */
public record TlsSettings(SslMode mode, String rootCert, String cert, String key, Password keyPassword) {
    public TlsSettings {
        Objects.requireNonNull(mode, "mode");
        Objects.requireNonNull(rootCert, "rootCert");
        Objects.requireNonNull(cert, "cert");
        Objects.requireNonNull(key, "key");
    }

    void addTo(Properties props) {
        props.setProperty("sslmode", mode.value);
        setIfPresent(props, "sslrootcert", rootCert);
        setIfPresent(props, "sslcert", cert);
        setIfPresent(props, "sslkey", key);
        // Without a password pgjdbc would ask System.console() for one when the key turns out to be encrypted; on a
        // worker started from a terminal that blocks the connecting thread on a prompt nobody sees. An empty password
        // makes such a key fail at once, and still opens a PKCS-12 keystore that has none.
        props.setProperty("sslpassword", keyPassword == null ? "" : keyPassword.value());
    }

    private static void setIfPresent(Properties props, String name, String value) {
        if (!value.isEmpty()) {
            props.setProperty(name, value);
        }
    }
}
