package dev.pglane.connect.config;

import static dev.pglane.docs.ValidationErrors.assertRejected;
import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.pglane.connect.database.HostAddress;
import java.util.Map;
import org.apache.kafka.common.config.ConfigDef;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** database.host through the ConfigDef, as validate() and the config classes parse it. */
class HostValidatorTest {
    private static final ConfigDef DEF = new ConfigDef();

    static {
        DatabaseSettings.define(
                new ConfigGroup(DEF, "Connection"), new DatabaseSettings.Role("source", "name doc", "user doc"));
    }

    private static Object parse(String host) {
        return DEF.parse(Map.of(DatabaseSettings.HOST, host, DatabaseSettings.NAME, "db", DatabaseSettings.USER, "u"))
                .get(DatabaseSettings.HOST);
    }

    @ParameterizedTest
    @ValueSource(
            strings = {
                "localhost",
                "db",
                "DB-1.example.COM",
                "3com.example",
                "a.b.c.d.e.f.g",
                "xn--bcher-kva.example",
                "proj_db_1",
                "127.0.0.1",
                "0.0.0.0",
                "255.255.255.255",
                "10.20.30.40",
                "::1",
                "[::1]",
                "::",
                "2001:db8::8a2e:370:7334",
                "[2001:DB8:0:0:8:800:200C:417A]",
                "fe80::",
                "1:2:3:4:5:6:7:8",
                "1:2:3:4:5:6:7::",
                "::ffff:192.0.2.128",
                "64:ff9b::192.0.2.33"
            })
    void acceptsHostNamesAndAddresses(String host) {
        assertEquals(host, parse(host));
    }

    @ParameterizedTest
    @ValueSource(
            strings = {
                // the injections: each would add or override pgjdbc properties if it reached a URL
                "h/db?sslfactory=org.postgresql.ssl.NonValidatingFactory",
                "h:5432/x?sslmode=disable&sslfactory=org.postgresql.ssl.NonValidatingFactory",
                "db.example?sslmode=disable",
                "db.example&sslmode=disable",
                "db.example#fragment",
                "sslmode=disable",
                "user@db.example",
                "db.example:5432",
                "primary,replica",
                "db%2fexample",
                // whitespace and control characters inside the value (ConfigDef trims the ends)
                "db example",
                "db\texample",
                "db\nexample",
                "db\u0000example",
                "db\u007fexample",
                // not RFC 1123
                "-db.example",
                "db-.example",
                "db..example",
                "db.example.",
                ".db.example",
                "bücher.example",
                "[db.example]",
                // numbers that are not dotted-decimal IPv4
                "1.2.3",
                "123",
                "256.1.1.1",
                "010.0.0.1",
                "1.2.3.4.5",
                "0x7f.0.0.1",
                // not IPv6
                "1:2:3:4:5:6:7:8:9",
                "1::2:3:4:5:6:7:8",
                "1:::2",
                "1::2::3",
                ":1:2:3:4:5:6:7",
                "12345::1",
                "g::1",
                "fe80::1%eth0",
                "[::1",
                "::1]",
                "[[::1]]",
                "::1.2.3",
            })
    void refusesAnythingElse(String host) {
        assertRejected(() -> parse(host), DatabaseSettings.HOST, host.strip(), HostAddress.RULE);
    }

    @Test
    void refusesANameLongerThan253Characters() {
        String label = "a".repeat(63);
        String name253 = String.join(".", label, label, label, "a".repeat(61));
        assertEquals(name253, parse(name253));
        assertRejected(() -> parse(name253 + "a"), DatabaseSettings.HOST, name253 + "a", HostAddress.RULE);
        assertRejected(
                () -> parse("a".repeat(64) + ".example"),
                DatabaseSettings.HOST,
                "a".repeat(64) + ".example",
                HostAddress.RULE);
    }

    @Test
    void docsStateTheRule() {
        assertEquals(
                HostAddress.RULE,
                DEF.configKeys().get(DatabaseSettings.HOST).validator.toString());
    }
}
