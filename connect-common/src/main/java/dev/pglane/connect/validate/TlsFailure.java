package dev.pglane.connect.validate;

import static dev.pglane.connect.config.DatabaseSettings.HOST;
import static dev.pglane.connect.config.DatabaseSettings.SSLCERT;
import static dev.pglane.connect.config.DatabaseSettings.SSLKEY;
import static dev.pglane.connect.config.DatabaseSettings.SSLMODE;
import static dev.pglane.connect.config.DatabaseSettings.SSLPASSWORD;
import static dev.pglane.connect.config.DatabaseSettings.SSLROOTCERT;
import static dev.pglane.connect.config.DatabaseSettings.USER;

import dev.pglane.connect.config.EnumChoice;
import dev.pglane.connect.database.DatabaseEndpoint;
import dev.pglane.connect.database.SqlStateClass;
import dev.pglane.connect.database.TlsSettings;
import java.security.cert.CertPathBuilderException;
import java.security.cert.CertPathValidatorException;
import java.security.cert.CertificateException;
import java.sql.SQLException;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import javax.net.ssl.SSLException;
import org.postgresql.util.GT;

/**
 * Why a connection attempt failed in TLS (the handshake, the server's certificate, the files of the
 * {@code database.ssl*} keys, a login by certificate), told from pgjdbc's exception, with the keys the user has to
 * change.
 *
 * <p>pgjdbc reports its own failures with messages from its catalogue, translated into the JVM's language, and gives
 * most of them no distinct SQLState or exception type. They are recognised by the catalogue entry itself, looked up
 * through pgjdbc's {@link GT} as pgjdbc does, so that a worker running in German is understood too. The templates are
 * pgjdbc 42.7's ({@code org.postgresql.ssl}, {@code ConnectionFactoryImpl}); the TLS tests provoke most of them and
 * fail if an upgrade rewords one. JSSE's failures are told by exception type, the server's by its SQLState and words.
 */
enum TlsFailure {
    SERVER_WITHOUT_TLS(List.of(SSLMODE), "The server does not support SSL."),
    HOST_NOT_IN_CERTIFICATE(
            List.of(HOST, SSLROOTCERT), "The hostname {0} could not be verified by hostnameverifier {1}."),
    SERVER_NOT_TRUSTED(List.of(SSLROOTCERT)),
    ROOT_CERTIFICATES_UNREADABLE(
            List.of(SSLROOTCERT),
            "Could not open SSL root certificate file {0}.",
            "Loading the SSL root certificate {0} into a TrustManager failed."),
    CERTIFICATE_UNREADABLE(
            List.of(SSLCERT),
            "Could not open SSL certificate file {0}.",
            "Loading the SSL certificate {0} into a KeyManager failed.",
            "Could not load cert chain"),
    KEY_UNREADABLE(
            List.of(SSLKEY),
            "Could not read SSL key file {0}.",
            "Could not load the private key",
            "private key file \"{0}\" has group or world access; file must have permissions u=rw (0600) or less if"
                    + " owned by the current user, or permissions u=rw,g=r (0640) or less if owned by root. Current"
                    + " permissions: {1}",
            "Could not read permissions for private key file \"{0}\"",
            "Unable to retrieve the permissions of the private key file \"{0}\""),
    /**
     * A wrong password, or an encryption pgjdbc cannot undo; for a PKCS-12 keystore with the wrong password pgjdbc
     * says only that "X.509 CertificateFactory" is not available, which this template covers too.
     */
    KEY_NOT_DECRYPTED(
            List.of(SSLKEY, SSLPASSWORD),
            "Could not decrypt SSL key file {0}.",
            "Could not find a java cryptographic algorithm: {0}.",
            "Could not read password for SSL key file, console is not available."),
    /** The server ended the handshake over the client's certificate or over a key that does not match it. */
    CERTIFICATE_REJECTED(List.of(SSLCERT, SSLKEY)),
    /** The handshake passed, but pg_hba.conf's {@code cert} method (or {@code clientcert=}) refused the login. */
    CERTIFICATE_LOGIN_REFUSED(List.of(SSLCERT, USER));

    /** TLS alerts by which a server refuses the client's certificate (RFC 8446 §6.2), as JSSE names them. */
    private static final Set<String> CERTIFICATE_ALERTS = Set.of(
            "bad_certificate",
            "unsupported_certificate",
            "certificate_revoked",
            "certificate_expired",
            "certificate_unknown",
            "unknown_ca",
            "access_denied",
            "decrypt_error",
            "certificate_required");

    private static final String RECEIVED_ALERT = "Received fatal alert: ";

    final List<String> keys;
    private final List<Pattern> messages;

    TlsFailure(List<String> keys, String... templates) {
        this.keys = keys;
        this.messages = Arrays.stream(templates).map(TlsFailure::localized).toList();
    }

    /** What the user reads on each of {@link #keys}; {@code cause} is pgjdbc's account of the failure. */
    String explain(DatabaseEndpoint endpoint, String cause) {
        TlsSettings tls = endpoint.tls();
        String server = "PostgreSQL at " + endpoint.address();
        return switch (this) {
            case SERVER_WITHOUT_TLS ->
                server + " does not offer TLS, and database.sslmode="
                        + EnumChoice.valueOf(tls.mode()) + " requires it: turn ssl on in the server's configuration,"
                        + " or choose a mode that does without TLS";
            case HOST_NOT_IN_CERTIFICATE ->
                "The certificate of " + server + " is not issued for '" + endpoint.host()
                        + "', and database.sslmode=verify_full checks the name: set database.host to a name the"
                        + " certificate lists, or have the server's certificate issued for it (" + cause + ")";
            case SERVER_NOT_TRUSTED ->
                "The certificate of " + server + " does not pass the check against the CA certificates in "
                        + file(tls.rootCert(), "root.crt") + " (database.sslrootcert): " + cause;
            case ROOT_CERTIFICATES_UNREADABLE -> "Cannot read the CA certificates of database.sslrootcert: " + cause;
            case CERTIFICATE_UNREADABLE -> "Cannot read the client certificate of database.sslcert: " + cause;
            case KEY_UNREADABLE ->
                "Cannot read the client key of database.sslkey (its documentation lists the formats pgjdbc reads): "
                        + cause;
            case KEY_NOT_DECRYPTED ->
                "Cannot open the client key of database.sslkey with database.sslpassword"
                        + " (pgjdbc opens PKCS-12 keystores, and PKCS-8 keys encrypted the old way, such as openssl pkcs8"
                        + " -v1 PBE-SHA1-3DES, not with the PBES2 that OpenSSL 3 uses by default): " + cause;
            case CERTIFICATE_REJECTED ->
                server + " did not accept the client certificate " + file(tls.cert(), "postgresql.crt")
                        + " with the key of database.sslkey: " + cause;
            case CERTIFICATE_LOGIN_REFUSED ->
                server + " refused user '" + endpoint.user() + "' with "
                        + (tls.cert().isEmpty()
                                ? "no client certificate configured"
                                : "client certificate " + tls.cert())
                        + ": " + cause;
        };
    }

    /** A configured file, or pgjdbc's default in the worker user's ~/.postgresql when it is empty. */
    private static String file(String configured, String defaultName) {
        return configured.isEmpty() ? "pgjdbc's default ~/.postgresql/" + defaultName : configured;
    }

    /** The TLS failure {@code e} reports, if it is one. */
    static Optional<TlsFailure> of(SQLException e) {
        String message = String.valueOf(e.getMessage());
        for (TlsFailure failure : values()) {
            if (failure.messages.stream().anyMatch(p -> p.matcher(message).matches())) {
                return Optional.of(failure);
            }
        }
        if (hasCause(e, SSLException.class) && hasCertificateCheckFailure(e)) {
            return Optional.of(SERVER_NOT_TRUSTED);
        }
        if (receivedCertificateAlert(e)) {
            return Optional.of(CERTIFICATE_REJECTED);
        }
        // The server's own words; English is PostgreSQL's default lc_messages, and a translated message falls
        // through to the plain authentication failure (database.user and database.password).
        if (SqlStateClass.of(e) == SqlStateClass.AUTHENTICATION
                && message.toLowerCase(Locale.ROOT).contains("certificate")) {
            return Optional.of(CERTIFICATE_LOGIN_REFUSED);
        }
        return Optional.empty();
    }

    /** A check of the server's certificate that failed on this side: no path to a trusted CA, expired, revoked. */
    private static boolean hasCertificateCheckFailure(Throwable e) {
        return hasCause(e, CertificateException.class)
                || hasCause(e, CertPathBuilderException.class)
                || hasCause(e, CertPathValidatorException.class);
    }

    private static boolean receivedCertificateAlert(Throwable e) {
        for (Throwable t = e; t != null; t = t.getCause() == t ? null : t.getCause()) {
            String text = String.valueOf(t.getMessage());
            if (t instanceof SSLException
                    && text.startsWith(RECEIVED_ALERT)
                    && CERTIFICATE_ALERTS.contains(text.substring(RECEIVED_ALERT.length()))) {
                return true;
            }
        }
        return false;
    }

    private static boolean hasCause(Throwable e, Class<? extends Exception> type) {
        for (Throwable t = e; t != null; t = t.getCause() == t ? null : t.getCause()) {
            if (type.isInstance(t)) {
                return true;
            }
        }
        return false;
    }

    /**
     * A pgjdbc message as pgjdbc words it in this JVM's language: the catalogue entry with each {@code {n}} argument
     * standing for any text.
     */
    private static Pattern localized(String template) {
        String text = GT.tr(template);
        StringBuilder regex = new StringBuilder();
        // a local pattern: the constants are built before any static field of the enum is set
        Matcher argument = Pattern.compile("\\{\\d+}").matcher(text);
        int last = 0;
        while (argument.find()) {
            regex.append(Pattern.quote(text.substring(last, argument.start()))).append(".*");
            last = argument.end();
        }
        regex.append(Pattern.quote(text.substring(last)));
        return Pattern.compile(regex.toString(), Pattern.DOTALL);
    }
}
