package dev.pglane.connect.config;

import static org.apache.kafka.common.config.ConfigDef.Importance.HIGH;
import static org.apache.kafka.common.config.ConfigDef.Importance.LOW;
import static org.apache.kafka.common.config.ConfigDef.Importance.MEDIUM;
import static org.apache.kafka.common.config.ConfigDef.NO_DEFAULT_VALUE;
import static org.apache.kafka.common.config.ConfigDef.Type.INT;
import static org.apache.kafka.common.config.ConfigDef.Type.STRING;

import dev.pglane.connect.database.DatabaseEndpoint;
import dev.pglane.connect.database.TlsSettings;
import java.time.Duration;
import java.util.List;
import java.util.function.Function;
import org.apache.kafka.common.config.ConfigDef.NonEmptyString;
import org.apache.kafka.common.config.ConfigDef.Range;
import org.apache.kafka.common.config.ConfigDef.Type;
import org.apache.kafka.common.config.ConfigDef.Width;
import org.apache.kafka.common.config.types.Password;
import org.postgresql.jdbc.SslMode;

/**
 * The {@code database.*} keys that both connectors define: where and as whom to connect. Each
 * connector's config class calls {@link #define} for its connection group, naming its {@link Role}
 * for the docs that differ, and reads the result back with {@link #endpoint}.
 */
public final class DatabaseSettings {
    public static final String HOST = "database.host";

    public static final String PORT = "database.port";
    static final int PORT_DEFAULT = 5432;

    public static final String NAME = "database.name";

    public static final String USER = "database.user";

    public static final String PASSWORD = "database.password";
    static final String PASSWORD_DOC = "Password of database.user; leave unset for trust or certificate"
            + " authentication. Use a Connect config provider to keep it out of the connector config.";
    static final Password PASSWORD_DEFAULT = null;

    public static final String SSLMODE = "database.sslmode";
    static final String SSLMODE_DOC = "TLS mode, as libpq's sslmode: disable, allow, prefer (TLS when the"
            + " server offers it), require (always TLS), verify_ca (also check that the server's certificate chains to"
            + " database.sslrootcert), verify_full (also check that it was issued for database.host). Only verify_ca"
            + " and verify_full authenticate the server, and verify_full is the one to use. The default, prefer, is"
            + " kept so that existing setups keep working; under it, and under disable, allow and require, anyone who"
            + " can intercept the connection can pose as the server and read or alter what the connector reads and"
            + " writes, so validate() and every start of the connector log a warning (the validate API has only"
            + " errors).";
    static final String SSLMODE_DEFAULT = EnumChoice.valueOf(SslMode.PREFER);
    static final EnumChoice<SslMode> SSL_MODES = EnumChoice.of(SslMode.class);

    public static final String SSLROOTCERT = "database.sslrootcert";
    static final String SSLROOTCERT_DOC = "File with the CA certificates (PEM or DER) that verify_ca and"
            + " verify_full check the server's certificate against. Empty: pgjdbc's default, ~/.postgresql/root.crt of"
            + " the worker's user.";
    static final String SSLROOTCERT_DEFAULT = "";

    public static final String SSLCERT = "database.sslcert";
    static final String SSLCERT_DOC = "File with the client certificate (X.509, PEM or DER, optionally followed by"
            + " its intermediate CAs) that the connector shows when the server asks for one: for cert authentication"
            + " in pg_hba.conf, where the certificate's CN must be database.user, or for clientcert=verify-ca or"
            + " verify-full. Needs database.sslkey. Not read when database.sslkey is a PKCS-12 file, which holds the"
            + " certificate itself. Empty: pgjdbc's default, ~/.postgresql/postgresql.crt of the worker's user, if it"
            + " exists.";
    static final String SSLCERT_DEFAULT = "";

    public static final String SSLKEY = "database.sslkey";
    static final String SSLKEY_DOC = "File with the private key of database.sslcert. pgjdbc 42.7 tells the format"
            + " from the file name: .p12 or .pfx, a PKCS-12 keystore with the key and the certificate under the alias"
            + " user (openssl pkcs12 -export -name user); .der, a PKCS-8 DER key; .pem, a plain PKCS-8 PEM RSA key"
            + " (-----BEGIN PRIVATE KEY-----); any other name (.pk8, .key), such a PEM key if the file has that"
            + " header, else a PKCS-8 DER key. A PKCS-8 DER key may be encrypted with an old-style scheme (openssl"
            + " pkcs8 -topk8 -v1 PBE-SHA1-3DES -outform DER), not with the PBES2 (AES) that OpenSSL 3 uses by"
            + " default: for an encrypted key, PKCS-12 is the better choice. Not read either: OpenSSL's traditional keys (BEGIN RSA PRIVATE KEY, BEGIN EC PRIVATE"
            + " KEY), encrypted PEM keys and PEM keys other than RSA; convert them with openssl pkcs8 -topk8 -nocrypt"
            + " -outform DER -out client.pk8. Make the file readable by the worker's user only: pgjdbc refuses a PEM"
            + " or .pk8 key that group or others may read. Empty: pgjdbc's default, ~/.postgresql/postgresql.pk8 of"
            + " the worker's user, if it exists.";
    static final String SSLKEY_DEFAULT = "";

    public static final String SSLPASSWORD = "database.sslpassword";
    static final String SSLPASSWORD_DOC = "Password of an encrypted database.sslkey (a PKCS-12 keystore or an"
            + " encrypted PKCS-8 DER key). Unset, the key is opened with an empty password, so an encrypted key"
            + " fails at once instead of waiting for a console prompt. Use a Connect config provider to keep it out of"
            + " the connector config.";
    static final Password SSLPASSWORD_DEFAULT = null;

    public static final String CONNECT_TIMEOUT_MS = "database.connect.timeout.ms";
    static final String CONNECT_TIMEOUT_MS_DOC = "How long to wait for a connection and its login"
            + " (pgjdbc rounds it up to whole seconds). Validation gives its whole server check twice this time.";
    static final int CONNECT_TIMEOUT_MS_DEFAULT = 10_000;

    /** The keys that must be valid before validate() opens a connection, in the order they are defined. */
    public static final List<String> KEYS = List.of(
            HOST, PORT, NAME, USER, PASSWORD, SSLMODE, SSLROOTCERT, SSLCERT, SSLKEY, SSLPASSWORD, CONNECT_TIMEOUT_MS);

    /**
     * What the server is to the connector, for the docs of the keys whose meaning depends on it.
     *
     * @param server how the docs call the server: {@code source} or {@code target}
     * @param nameDoc the doc of {@code database.name}
     * @param userDoc the doc of {@code database.user}: the privileges the connector needs
     */
    public record Role(String server, String nameDoc, String userDoc) {
        String hostDoc() {
            return "Host name or IP address of the " + server + " PostgreSQL server.";
        }

        String portDoc() {
            return "TCP port of the " + server + " PostgreSQL server.";
        }
    }

    private DatabaseSettings() {}

    /** Defines the {@code database.*} keys in {@code group}, in the order of {@link #KEYS}. */
    public static void define(ConfigGroup group, Role role) {
        group.key(HOST, "Host", Width.LONG).define(STRING, NO_DEFAULT_VALUE, new HostValidator(), HIGH, role.hostDoc());
        group.key(PORT, "Port", Width.SHORT).define(INT, PORT_DEFAULT, Range.between(1, 65535), HIGH, role.portDoc());
        group.key(NAME, "Database", Width.MEDIUM)
                .define(STRING, NO_DEFAULT_VALUE, new NonEmptyString(), HIGH, role.nameDoc());
        group.key(USER, "User", Width.MEDIUM)
                .define(STRING, NO_DEFAULT_VALUE, new NonEmptyString(), HIGH, role.userDoc());
        group.key(PASSWORD, "Password", Width.MEDIUM).define(Type.PASSWORD, PASSWORD_DEFAULT, null, HIGH, PASSWORD_DOC);
        group.key(SSLMODE, "TLS mode", Width.SHORT).define(STRING, SSLMODE_DEFAULT, SSL_MODES, MEDIUM, SSLMODE_DOC);
        group.key(SSLROOTCERT, "TLS root certificates", Width.LONG)
                .define(STRING, SSLROOTCERT_DEFAULT, null, LOW, SSLROOTCERT_DOC);
        group.key(SSLCERT, "TLS client certificate", Width.LONG)
                .define(STRING, SSLCERT_DEFAULT, null, LOW, SSLCERT_DOC);
        group.key(SSLKEY, "TLS client key", Width.LONG).define(STRING, SSLKEY_DEFAULT, null, LOW, SSLKEY_DOC);
        group.key(SSLPASSWORD, "TLS client key password", Width.MEDIUM)
                .define(Type.PASSWORD, SSLPASSWORD_DEFAULT, null, LOW, SSLPASSWORD_DOC);
        group.key(CONNECT_TIMEOUT_MS, "Connect timeout (ms)", Width.SHORT)
                .define(INT, CONNECT_TIMEOUT_MS_DEFAULT, Range.atLeast(1), LOW, CONNECT_TIMEOUT_MS_DOC);
    }

    /**
     * The connection settings, from a parsed config ({@code this::get} in the config class) or from
     * the values of a validation ({@code report::value}).
     */
    public static DatabaseEndpoint endpoint(Function<String, Object> parsed) {
        return new DatabaseEndpoint(
                (String) parsed.apply(HOST),
                (Integer) parsed.apply(PORT),
                (String) parsed.apply(NAME),
                (String) parsed.apply(USER),
                (Password) parsed.apply(PASSWORD),
                new TlsSettings(
                        sslMode(parsed),
                        (String) parsed.apply(SSLROOTCERT),
                        (String) parsed.apply(SSLCERT),
                        (String) parsed.apply(SSLKEY),
                        (Password) parsed.apply(SSLPASSWORD)),
                Duration.ofMillis((Integer) parsed.apply(CONNECT_TIMEOUT_MS)));
    }

    /** The TLS mode alone, which validate() can read while other connection keys are still wrong. */
    public static SslMode sslMode(Function<String, Object> parsed) {
        return SSL_MODES.parse((String) parsed.apply(SSLMODE));
    }
}
