package dev.pglane.sink.apply;

import dev.pglane.connect.database.DatabaseEndpoint;
import dev.pglane.connect.database.TlsSettings;
import io.zonky.test.db.postgres.embedded.EmbeddedPostgres;
import java.io.IOException;
import java.io.InputStream;
import java.net.URL;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Locale;
import org.junit.jupiter.api.extension.AfterAllCallback;
import org.junit.jupiter.api.extension.BeforeAllCallback;
import org.junit.jupiter.api.extension.ExtensionContext;
import org.postgresql.jdbc.SslMode;

/**
 * An embedded PostgreSQL 17 as the sink's target, one per test class ({@code @RegisterExtension
 * static}), with helpers to set up and read tables.
 */
public final class TargetServer implements BeforeAllCallback, AfterAllCallback {
    private final String[] setUp;
    private EmbeddedPostgres server;

    /** @param setUp statements run once the server is up */
    public TargetServer(String... setUp) {
        this.setUp = setUp.clone();
    }

    @Override
    public void beforeAll(ExtensionContext context) throws IOException, SQLException {
        server = EmbeddedPostgres.builder()
                .setPgBinaryResolver(TargetServer::binaries)
                .start();
        execute(setUp);
    }

    @Override
    public void afterAll(ExtensionContext context) throws IOException {
        server.close();
    }

    /**
     * PostgreSQL 17's binaries: the only ones on connect-sink's class path; integration-tests', which runs the Avro
     * mutation test with this server, holds every major's, and the default resolver refuses more than one.
     */
    private static InputStream binaries(String system, String machineHardware) throws IOException {
        String archive =
                String.format("postgres-%s-%s.txz", system, machineHardware).toLowerCase(Locale.ROOT);
        List<URL> found = Collections.list(TargetServer.class.getClassLoader().getResources(archive));
        URL chosen = found.size() == 1
                ? found.get(0)
                : found.stream()
                        .filter(url -> url.toString().contains("-17."))
                        .findFirst()
                        .orElseThrow(() -> new IOException("no PostgreSQL 17 " + archive + " among " + found));
        return chosen.openStream();
    }

    public DatabaseEndpoint endpoint() {
        return new DatabaseEndpoint(
                "127.0.0.1",
                server.getPort(),
                "postgres",
                "postgres",
                null,
                new TlsSettings(SslMode.DISABLE, "", "", "", null),
                Duration.ofSeconds(10));
    }

    /**
     * An administrator's session, as psql would open it (the default search path): the tests set up and read the
     * target with it. Code under test connects through {@link #endpoint()}, whose sessions pin their search path.
     */
    public Connection connect() throws SQLException {
        return server.getPostgresDatabase().getConnection();
    }

    /** Runs statements in autocommit mode. */
    public void execute(String... sql) throws SQLException {
        try (Connection c = connect();
                Statement st = c.createStatement()) {
            for (String statement : sql) {
                st.execute(statement);
            }
        }
    }

    /** Each row of {@code sql} as its columns' text joined by {@code |}. */
    public List<String> rows(String sql) throws SQLException {
        List<String> rows = new ArrayList<>();
        try (Connection c = connect();
                Statement st = c.createStatement();
                ResultSet rs = st.executeQuery(sql)) {
            int columns = rs.getMetaData().getColumnCount();
            while (rs.next()) {
                StringBuilder row = new StringBuilder();
                for (int i = 1; i <= columns; i++) {
                    row.append(i > 1 ? "|" : "").append(rs.getString(i));
                }
                rows.add(row.toString());
            }
        }
        return rows;
    }
}
