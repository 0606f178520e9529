package dev.pglane.connect.validate;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.pglane.connect.config.ConfigGroup;
import dev.pglane.connect.config.DatabaseSettings;
import dev.pglane.connect.logging.LogCapture;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.apache.kafka.common.config.Config;
import org.apache.kafka.common.config.ConfigDef;
import org.junit.jupiter.api.Test;

class ValidationReportTest {
    private static final ConfigDef DEF = new ConfigDef();

    static {
        DatabaseSettings.define(new ConfigGroup(DEF, "Connection"), new DatabaseSettings.Role("source", "n", "u"));
    }

    static ValidationReport report(String sslMode) {
        Map<String, String> props = new HashMap<>(Map.of(DatabaseSettings.NAME, "db", DatabaseSettings.USER, "u"));
        props.put(DatabaseSettings.SSLMODE, sslMode);
        return new ValidationReport(new Config(DEF.validate(props)));
    }

    @Test
    void aModeThatDoesNotAuthenticateTheServerIsLoggedAsAWarning() {
        try (LogCapture logs = LogCapture.start()) {
            report("prefer").warnIfServerUnverified("orders");
            List<String> warnings = logs.warnings();
            assertEquals(1, warnings.size(), logs.lines().toString());
            assertTrue(
                    warnings.get(0)
                            .contains("Connector 'orders': database.sslmode=prefer does not authenticate the"
                                    + " server"),
                    warnings.get(0));
        }
    }

    @Test
    void verifyFullAndAnInvalidModeAreNot() {
        try (LogCapture logs = LogCapture.start()) {
            report("verify_full").warnIfServerUnverified("orders");
            report("verify-fuller").warnIfServerUnverified("orders");
            assertEquals(List.of(), logs.warnings());
        }
    }
}
