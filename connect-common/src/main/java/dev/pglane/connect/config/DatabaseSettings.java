package dev.pglane.connect.config;

import static org.apache.kafka.common.config.ConfigDef.Importance.HIGH;
import static org.apache.kafka.common.config.ConfigDef.Importance.LOW;
import static org.apache.kafka.common.config.ConfigDef.Importance.MEDIUM;
import static org.apache.kafka.common.config.ConfigDef.NO_DEFAULT_VALUE;
import static org.apache.kafka.common.config.ConfigDef.Type.INT;
import static org.apache.kafka.common.config.ConfigDef.Type.STRING;

import dev.pglane.connect.database.DatabaseEndpoint;
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
            + " server offers it), require, verify_ca (also check the certificate chain), verify_full (also check"
            + " the host name).";
    static final String SSLMODE_DEFAULT = EnumChoice.valueOf(SslMode.PREFER);
    static final EnumChoice<SslMode> SSL_MODES = EnumChoice.of(SslMode.class);

    public static final String SSLROOTCERT = "database.sslrootcert";
    static final String SSLROOTCERT_DOC = "File with the CA certificates that verify_ca and verify_full"
            + " check the server against. Empty: pgjdbc's default, ~/.postgresql/root.crt of the worker's user.";
    static final String SSLROOTCERT_DEFAULT = "";

    public static final String CONNECT_TIMEOUT_MS = "database.connect.timeout.ms";
    static final String CONNECT_TIMEOUT_MS_DOC = "How long to wait for a connection and its login"
            + " (pgjdbc rounds it up to whole seconds). Validation gives its whole server check twice this time.";
    static final int CONNECT_TIMEOUT_MS_DEFAULT = 10_000;

    /** The keys that must be valid before validate() opens a connection, in the order they are defined. */
    public static final List<String> KEYS =
            List.of(HOST, PORT, NAME, USER, PASSWORD, SSLMODE, SSLROOTCERT, CONNECT_TIMEOUT_MS);

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
                SSL_MODES.parse((String) parsed.apply(SSLMODE)),
                (String) parsed.apply(SSLROOTCERT),
                Duration.ofMillis((Integer) parsed.apply(CONNECT_TIMEOUT_MS)));
    }
}
