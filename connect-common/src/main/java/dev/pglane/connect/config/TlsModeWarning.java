package dev.pglane.connect.config;

import java.util.Optional;
import org.postgresql.jdbc.SslMode;
import org.slf4j.Logger;

/**
 * The warning for a {@code database.sslmode} that does not authenticate the server. Such a mode is allowed (prefer is
 * the default, so that existing setups keep working) and Connect's validate API knows only errors, so it is a WARN
 * in the worker's log: from every validate(), and once per start of each connector.
 */
public final class TlsModeWarning {
    private TlsModeWarning() {}

    /** The warning for {@code mode}; empty for verify_ca and verify_full, which check the server's certificate. */
    public static Optional<String> of(SslMode mode) {
        String what = switch (mode) {
            case DISABLE -> "never uses TLS";
            case ALLOW -> "uses TLS only when the server insists, and never checks the server's certificate";
            case PREFER ->
                "uses TLS when the server offers it, falls back to clear text when it does not,"
                        + " and never checks the server's certificate";
            case REQUIRE -> "encrypts, but never checks the server's certificate";
            case VERIFY_CA, VERIFY_FULL -> null;
        };
        return Optional.ofNullable(what)
                .map(w -> DatabaseSettings.SSLMODE + "=" + EnumChoice.valueOf(mode) + " does not authenticate the"
                        + " server: it " + w + ", so anyone who can intercept the connection can pose as the server"
                        + " and read or alter what the connector reads and writes. Set " + DatabaseSettings.SSLMODE
                        + "=verify_full, and " + DatabaseSettings.SSLROOTCERT + " to the CA certificate that signed the"
                        + " server's certificate.");
    }

    /** Logs the warning for {@code mode}, if it has one, naming the connector. */
    public static void log(Logger log, String connectorName, SslMode mode) {
        of(mode).ifPresent(warning -> log.warn("Connector '{}': {}", connectorName, warning));
    }
}
