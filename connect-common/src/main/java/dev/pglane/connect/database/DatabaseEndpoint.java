package dev.pglane.connect.database;

import java.sql.Connection;
import java.sql.SQLException;
import java.time.Duration;
import java.util.Objects;
import java.util.Properties;
import org.apache.kafka.common.config.types.Password;
import org.postgresql.Driver;

/**
 * Where and as whom to connect to PostgreSQL (the {@code database.*} keys), turned into pgjdbc
 * terms. {@link Password#toString()} hides the passwords, so the record is safe to log.
 *
 * <p>Every session starts with {@link #PINNED_SEARCH_PATH}: a role that may create objects in a schema of
 * the default search path (such as {@code public} before PostgreSQL 15) could otherwise shadow a function or
 * operator pglane's SQL calls with a better-matching one of its own and run code as pglane's role, which is
 * often a superuser (CVE-2018-1058; PostgreSQL's own apply worker pins its search path since CVE-2020-14349).
 * Nothing pglane runs depends on the search path: it names every table by schema, and types by the names the
 * server formats under this same path.
 *
 * <p>The host must pass {@link HostAddress}; the record refuses any other, whatever built it.
 *
 * <p>Every connection has TCP keepalive on. {@code socketTimeout}, when not zero, bounds how long a read waits for
 * the server (pgjdbc's {@code socketTimeout}): a connection whose server vanished without closing it fails then
 * instead of hanging. It must be longer than any statement the connection runs may take.
 */
public record DatabaseEndpoint(
        String host,
        int port,
        String database,
        String user,
        Password password,
        TlsSettings tls,
        Duration connectTimeout,
        Duration socketTimeout) {

    /** An endpoint whose reads wait as long as the server takes. */
    public DatabaseEndpoint(
            String host,
            int port,
            String database,
            String user,
            Password password,
            TlsSettings tls,
            Duration connectTimeout) {
        this(host, port, database, user, password, tls, connectTimeout, Duration.ZERO);
    }

    /** The same endpoint with reads bounded by {@code timeout}; zero for none. */
    public DatabaseEndpoint withSocketTimeout(Duration timeout) {
        return new DatabaseEndpoint(host, port, database, user, password, tls, connectTimeout, timeout);
    }

    /**
     * The search path of every session: pg_catalog first and the session's temporary schema last, so that
     * unqualified names reach only the system catalog (pg_temp is never searched for functions and operators).
     */
    public static final String PINNED_SEARCH_PATH = "pg_catalog,pg_temp";

    /**
     * The URL of every connection. It names no server: pgjdbc takes host, port and database from the {@code PGHOST},
     * {@code PGPORT} and {@code PGDBNAME} properties when the URL leaves them out. Built from the settings, the URL
     * would be text that pgjdbc splits at {@code / ? & =} and percent-decodes, so a crafted value would add driver
     * properties (an {@code sslfactory} that skips certificate checks, say); a property is only ever its own value.
     */
    static final String URL = "jdbc:postgresql://";

    /** pgjdbc's {@code options} property: server settings applied at connection start. */
    static final String OPTIONS = "options";

    public DatabaseEndpoint {
        if (!HostAddress.isValid(host)) {
            throw new IllegalArgumentException("Host '" + host + "' is not " + HostAddress.RULE);
        }
        Objects.requireNonNull(database, "database");
        Objects.requireNonNull(user, "user");
        Objects.requireNonNull(tls, "tls");
        Objects.requireNonNull(socketTimeout, "socketTimeout");
    }

    /** {@code host:port}, as error messages name the server ({@code [v6]:port} for an IPv6 address). */
    public String address() {
        return HostAddress.forDriver(host) + ":" + port;
    }

    /**
     * Opens a plain SQL connection. The driver is called directly rather than through {@code
     * DriverManager}, which in a Connect worker may not see drivers of the plugin's class loader.
     */
    public Connection connect(String applicationName) throws SQLException {
        return connect(applicationName, new Properties());
    }

    /**
     * Opens a connection with extra pgjdbc properties on top of the endpoint's, e.g. those of a
     * replication connection ({@code replication=database}). Extra {@code options} come after the pinned
     * search path, which they cannot undo: they are pglane's own settings, never a user's text.
     */
    public Connection connect(String applicationName, Properties extra) throws SQLException {
        Properties props = properties(applicationName);
        String options = props.getProperty(OPTIONS);
        props.putAll(extra);
        if (extra.getProperty(OPTIONS) != null) {
            props.setProperty(OPTIONS, options + " " + extra.getProperty(OPTIONS));
        }
        Connection connection = new Driver().connect(URL, props);
        if (connection == null) {
            throw new SQLException("pgjdbc did not accept the URL " + URL);
        }
        return connection;
    }

    Properties properties(String applicationName) {
        Properties props = new Properties();
        props.setProperty("PGHOST", HostAddress.forDriver(host));
        props.setProperty("PGPORT", Integer.toString(port));
        props.setProperty("PGDBNAME", database);
        props.setProperty("user", user);
        if (password != null) {
            props.setProperty("password", password.value());
        }
        tls.addTo(props);
        // pgjdbc takes whole seconds; round up so a sub-second setting does not mean "no timeout" (0).
        String seconds = Long.toString(Math.max(1, (connectTimeout.toMillis() + 999) / 1000));
        props.setProperty("connectTimeout", seconds);
        props.setProperty("loginTimeout", seconds);
        props.setProperty("tcpKeepAlive", "true");
        if (!socketTimeout.isZero()) {
            props.setProperty("socketTimeout", Long.toString(Math.max(1, (socketTimeout.toMillis() + 999) / 1000)));
        }
        props.setProperty("ApplicationName", applicationName);
        // the server splits options at spaces, so the value has none
        props.setProperty(OPTIONS, "-c search_path=" + PINNED_SEARCH_PATH);
        return props;
    }
}
