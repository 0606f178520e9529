package dev.pglane.connect.database;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.util.Properties;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;
import org.postgresql.Driver;
import org.postgresql.jdbc.SslMode;

class DatabaseEndpointTest {
    static DatabaseEndpoint endpoint(String host, String database) {
        TlsSettings tls = new TlsSettings(SslMode.VERIFY_FULL, "", "", "", null);
        return new DatabaseEndpoint(host, 5432, database, "app", null, tls, Duration.ofSeconds(3));
    }

    @ParameterizedTest
    @ValueSource(
            strings = {
                "h/db?sslfactory=org.postgresql.ssl.NonValidatingFactory",
                "h:5432/x?sslmode=disable&sslfactory=org.postgresql.ssl.NonValidatingFactory",
                "a,b",
                "db example",
                ""
            })
    void refusesAHostThatIsNotAHostNameOrAddress(String host) {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> endpoint(host, "shop"));
        assertTrue(e.getMessage().startsWith("Host '" + host + "' is not a host name"), e.getMessage());
    }

    @Test
    void refusesNoHost() {
        assertThrows(IllegalArgumentException.class, () -> endpoint(null, "shop"));
    }

    @ParameterizedTest
    @CsvSource({
        "db.example, db.example, db.example:5432",
        "127.0.0.1, 127.0.0.1, 127.0.0.1:5432",
        "::1, [::1], [::1]:5432",
        "[2001:db8::1], [2001:db8::1], [2001:db8::1]:5432"
    })
    void hostGoesToPgjdbcAsAPropertyInItsUsualForm(String host, String pgHost, String address) {
        DatabaseEndpoint endpoint = endpoint(host, "shop");
        Properties props = endpoint.properties("test");
        assertEquals(pgHost, props.getProperty("PGHOST"));
        assertEquals("5432", props.getProperty("PGPORT"));
        assertEquals(address, endpoint.address());
    }

    @Test
    void everyConnectionKeepsItsSocketAliveAndBoundsItsReadsOnlyWhenAsked() {
        Properties unbounded = endpoint("db.example", "shop").properties("test");
        assertEquals("true", unbounded.getProperty("tcpKeepAlive"));
        assertNull(unbounded.getProperty("socketTimeout"), "pgjdbc's default: reads wait as long as the server takes");
        Properties bounded = endpoint("db.example", "shop")
                .withSocketTimeout(Duration.ofMillis(1500))
                .properties("test");
        assertEquals("true", bounded.getProperty("tcpKeepAlive"));
        assertEquals("2", bounded.getProperty("socketTimeout"), "whole seconds, rounded up");
    }

    /** pgjdbc's own parse of what connect() hands it: the settings come through as they are, and nothing else. */
    @Test
    void theFixedUrlAddsNothingToTheProperties() {
        DatabaseEndpoint endpoint = endpoint("db.example", "a/b?sslmode=disable&x=%41");
        Properties given = endpoint.properties("test");
        Properties parsed = Driver.parseURL(DatabaseEndpoint.URL, given);
        assertEquals("db.example", parsed.getProperty("PGHOST"));
        assertEquals("5432", parsed.getProperty("PGPORT"));
        assertEquals("a/b?sslmode=disable&x=%41", parsed.getProperty("PGDBNAME"));
        assertEquals("verify-full", parsed.getProperty("sslmode"));
        assertNull(parsed.getProperty("x"));
        assertEquals(given.stringPropertyNames(), parsed.stringPropertyNames());
    }
}
