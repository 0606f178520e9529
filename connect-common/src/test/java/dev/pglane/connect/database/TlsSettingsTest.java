package dev.pglane.connect.database;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.pglane.connect.config.ConfigGroup;
import dev.pglane.connect.config.DatabaseSettings;
import dev.pglane.connect.logging.LogCapture;
import java.time.Duration;
import java.util.Map;
import java.util.Properties;
import org.apache.kafka.common.config.AbstractConfig;
import org.apache.kafka.common.config.ConfigDef;
import org.apache.kafka.common.config.types.Password;
import org.junit.jupiter.api.Test;
import org.postgresql.jdbc.SslMode;

class TlsSettingsTest {
    private static final String SECRET = "k3y-s3cret-42";

    static TlsSettings withKeyPassword(String password) {
        return new TlsSettings(
                SslMode.VERIFY_FULL,
                "/etc/pglane/ca.crt",
                "/etc/pglane/client.crt",
                "/etc/pglane/client.p12",
                password == null ? null : new Password(password));
    }

    @Test
    void theFilesAndThePasswordGoToPgjdbc() {
        Properties props = new Properties();
        withKeyPassword(SECRET).addTo(props);
        assertEquals("verify-full", props.getProperty("sslmode"));
        assertEquals("/etc/pglane/ca.crt", props.getProperty("sslrootcert"));
        assertEquals("/etc/pglane/client.crt", props.getProperty("sslcert"));
        assertEquals("/etc/pglane/client.p12", props.getProperty("sslkey"));
        assertEquals(SECRET, props.getProperty("sslpassword"));
    }

    /** Empty file names leave pgjdbc its defaults; no password is an empty one, never a console prompt. */
    @Test
    void emptySettingsLeavePgjdbcItsDefaultsButNeverAPrompt() {
        Properties props = new Properties();
        new TlsSettings(SslMode.PREFER, "", "", "", null).addTo(props);
        assertEquals("prefer", props.getProperty("sslmode"));
        assertNull(props.getProperty("sslrootcert"));
        assertNull(props.getProperty("sslcert"));
        assertNull(props.getProperty("sslkey"));
        assertEquals("", props.getProperty("sslpassword"));
    }

    @Test
    void theKeyPasswordIsNotInTheEndpointsText() {
        DatabaseEndpoint endpoint = new DatabaseEndpoint(
                "db.example",
                5432,
                "shop",
                "app",
                new Password("login-" + SECRET),
                withKeyPassword(SECRET),
                Duration.ofSeconds(1));
        String text = endpoint.toString();
        assertFalse(text.contains(SECRET), text);
        assertTrue(text.contains("keyPassword=[hidden]"), text);
    }

    /** AbstractConfig logs every value when a connector or task parses its config. */
    @Test
    void theKeyPasswordIsAPasswordKeyThatConfigLogsHide() {
        ConfigDef def = new ConfigDef();
        DatabaseSettings.define(new ConfigGroup(def, "Connection"), new DatabaseSettings.Role("source", "n", "u"));
        assertEquals(ConfigDef.Type.PASSWORD, def.configKeys().get(DatabaseSettings.SSLPASSWORD).type);
        Map<String, String> props = Map.of(
                DatabaseSettings.HOST, "db.example",
                DatabaseSettings.NAME, "shop",
                DatabaseSettings.USER, "app",
                DatabaseSettings.SSLPASSWORD, SECRET);
        try (LogCapture logs = LogCapture.start()) {
            AbstractConfig config = new AbstractConfig(def, props);
            assertEquals(
                    SECRET,
                    DatabaseSettings.endpoint(config.values()::get)
                            .tls()
                            .keyPassword()
                            .value());
            String logged = String.join("\n", logs.lines());
            assertTrue(logged.contains("database.sslpassword = [hidden]"), logged);
            assertFalse(logged.contains(SECRET), logged);
        }
    }
}
