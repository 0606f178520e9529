package dev.pglane.connect.config;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.pglane.connect.logging.LogCapture;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;
import org.postgresql.jdbc.SslMode;
import org.slf4j.LoggerFactory;

class TlsModeWarningTest {
    @ParameterizedTest
    @EnumSource(
            value = SslMode.class,
            names = {"DISABLE", "ALLOW", "PREFER", "REQUIRE"})
    void modesThatDoNotCheckTheServersCertificateAreWarnedAbout(SslMode mode) {
        String warning = TlsModeWarning.of(mode).orElseThrow();
        assertTrue(
                warning.startsWith(
                        "database.sslmode=" + EnumChoice.valueOf(mode) + " does not authenticate the server"),
                warning);
        assertTrue(
                warning.endsWith("Set database.sslmode=verify_full, and database.sslrootcert to the CA certificate that"
                        + " signed the server's certificate."),
                warning);
    }

    @ParameterizedTest
    @EnumSource(
            value = SslMode.class,
            names = {"VERIFY_CA", "VERIFY_FULL"})
    void modesThatCheckTheServersCertificateAreNot(SslMode mode) {
        assertEquals(Optional.empty(), TlsModeWarning.of(mode));
    }

    @Test
    void theLogLineNamesTheConnector() {
        try (LogCapture logs = LogCapture.start()) {
            TlsModeWarning.log(LoggerFactory.getLogger(TlsModeWarningTest.class), "orders", SslMode.REQUIRE);
            TlsModeWarning.log(LoggerFactory.getLogger(TlsModeWarningTest.class), "orders", SslMode.VERIFY_FULL);
            assertEquals(
                    List.of("WARN " + TlsModeWarningTest.class.getName() + " Connector 'orders': "
                            + TlsModeWarning.of(SslMode.REQUIRE).orElseThrow()),
                    logs.warnings());
        }
    }
}
