package dev.pglane.connect.config;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import dev.pglane.connect.database.DatabaseEndpoint;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.apache.kafka.common.config.ConfigDef;
import org.apache.kafka.common.config.ConfigDef.ConfigKey;
import org.junit.jupiter.api.Test;
import org.postgresql.jdbc.SslMode;

class DatabaseSettingsTest {
    private static final DatabaseSettings.Role ROLE = new DatabaseSettings.Role("target", "name doc", "user doc");

    private static ConfigDef defined() {
        ConfigDef def = new ConfigDef();
        DatabaseSettings.define(new ConfigGroup(def, "Connection"), ROLE);
        return def;
    }

    @Test
    void definesTheKeysInOneGroupInTheOrderOfKeys() {
        ConfigDef def = defined();
        List<ConfigKey> keys = List.copyOf(def.configKeys().values());
        assertEquals(DatabaseSettings.KEYS, keys.stream().map(k -> k.name).toList());
        for (int i = 0; i < keys.size(); i++) {
            assertEquals("Connection", keys.get(i).group);
            assertEquals(i + 1, keys.get(i).orderInGroup);
        }
    }

    @Test
    void roleNamesTheServerAndSuppliesItsOwnDocs() {
        Map<String, ConfigKey> keys = defined().configKeys();
        assertEquals(
                "Host name or IP address of the target PostgreSQL server.",
                keys.get(DatabaseSettings.HOST).documentation);
        assertEquals("TCP port of the target PostgreSQL server.", keys.get(DatabaseSettings.PORT).documentation);
        assertEquals("name doc", keys.get(DatabaseSettings.NAME).documentation);
        assertEquals("user doc", keys.get(DatabaseSettings.USER).documentation);
    }

    @Test
    void endpointReadsTheParsedValuesWithDefaults() {
        Map<String, Object> parsed = defined()
                .parse(Map.of(
                        DatabaseSettings.HOST, "db.example",
                        DatabaseSettings.NAME, "shop",
                        DatabaseSettings.USER, "apply",
                        DatabaseSettings.SSLMODE, "VERIFY_FULL"));
        DatabaseEndpoint endpoint = DatabaseSettings.endpoint(parsed::get);
        assertEquals("db.example:5432", endpoint.address());
        assertEquals("shop", endpoint.database());
        assertEquals("apply", endpoint.user());
        assertNull(endpoint.password());
        assertEquals(SslMode.VERIFY_FULL, endpoint.tls().mode());
        assertEquals("", endpoint.tls().rootCert());
        assertEquals("", endpoint.tls().cert());
        assertEquals("", endpoint.tls().key());
        assertNull(endpoint.tls().keyPassword());
        assertEquals(Duration.ofSeconds(10), endpoint.connectTimeout());
    }
}
