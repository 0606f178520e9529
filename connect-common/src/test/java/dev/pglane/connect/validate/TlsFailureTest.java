package dev.pglane.connect.validate;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.net.SocketException;
import java.sql.SQLException;
import java.util.Optional;
import javax.net.ssl.SSLHandshakeException;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The server's verdict on a client certificate arrives as a TLS alert only when it beats the client's next write
 * (otherwise the client sees a broken pipe), so a real server cannot show it reliably. The exceptions here have the
 * shape pgjdbc 42.7 gave against PostgreSQL 17 for a client key that did not match its certificate.
 */
class TlsFailureTest {
    static SQLException handshakeEndedBy(String alert) {
        return new SQLException(
                "The connection attempt failed.", "08001", new SSLHandshakeException("Received fatal alert: " + alert));
    }

    @ParameterizedTest
    @ValueSource(strings = {"decrypt_error", "bad_certificate", "certificate_expired", "unknown_ca", "access_denied"})
    void aCertificateAlertFromTheServerIsARejectedCertificate(String alert) {
        assertEquals(Optional.of(TlsFailure.CERTIFICATE_REJECTED), TlsFailure.of(handshakeEndedBy(alert)));
    }

    @ParameterizedTest
    @ValueSource(strings = {"handshake_failure", "protocol_version", "internal_error"})
    void otherAlertsAreNotAboutTheCertificate(String alert) {
        assertEquals(Optional.empty(), TlsFailure.of(handshakeEndedBy(alert)));
    }

    @ParameterizedTest
    @ValueSource(strings = {"Broken pipe", "Connection reset by peer"})
    void aLostConnectionIsNotATlsFailure(String cause) {
        SQLException e = new SQLException("The connection attempt failed.", "08001", new SocketException(cause));
        assertEquals(Optional.empty(), TlsFailure.of(e));
    }

    @ParameterizedTest
    @ValueSource(strings = {"28P01", "28000"})
    void aPasswordFailureIsNotACertificateLogin(String state) {
        SQLException e = new SQLException("FATAL: password authentication failed for user \"a\"", state);
        assertEquals(Optional.empty(), TlsFailure.of(e));
    }
}
