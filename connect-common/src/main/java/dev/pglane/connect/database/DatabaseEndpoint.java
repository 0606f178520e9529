package dev.pglane.connect.database;

import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.sql.Connection;
import java.sql.SQLException;
import java.time.Duration;
import java.util.Properties;
import org.apache.kafka.common.config.types.Password;
import org.postgresql.Driver;
import org.postgresql.jdbc.SslMode;

/**
 * Where and as whom to connect to PostgreSQL (the {@code database.*} keys), turned into pgjdbc
 * terms. {@link Password#toString()} hides the password, so the record is safe to log.
 */
public record DatabaseEndpoint(
        String host,
        int port,
        String database,
        String user,
        Password password,
        SslMode sslMode,
        String sslRootCert,
        Duration connectTimeout) {

    /** {@code host:port}, as error messages name the server. */
    public String address() {
        return host + ":" + port;
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
     * replication connection ({@code replication=database}).
     */
    public Connection connect(String applicationName, Properties extra) throws SQLException {
        Properties props = properties(applicationName);
        props.putAll(extra);
        Connection connection = new Driver().connect(jdbcUrl(), props);
        if (connection == null) {
            throw new SQLException("pgjdbc did not accept the URL " + jdbcUrl());
        }
        return connection;
    }

    String jdbcUrl() {
        String hostPart = host.contains(":") && !host.startsWith("[") ? "[" + host + "]" : host;
        String db = URLEncoder.encode(database, StandardCharsets.UTF_8).replace("+", "%20");
        return "jdbc:postgresql://" + hostPart + ":" + port + "/" + db;
    }

    Properties properties(String applicationName) {
        Properties props = new Properties();
        props.setProperty("user", user);
        if (password != null) {
            props.setProperty("password", password.value());
        }
        props.setProperty("sslmode", sslMode.value);
        if (!sslRootCert.isEmpty()) {
            props.setProperty("sslrootcert", sslRootCert);
        }
        // pgjdbc takes whole seconds; round up so a sub-second setting does not mean "no timeout" (0).
        String seconds = Long.toString(Math.max(1, (connectTimeout.toMillis() + 999) / 1000));
        props.setProperty("connectTimeout", seconds);
        props.setProperty("loginTimeout", seconds);
        props.setProperty("ApplicationName", applicationName);
        return props;
    }
}
