package dev.pglane.source.values;

import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.pglane.source.schema.JdbcTypeCatalog;
import dev.pglane.wire.types.PgColumnType;
import io.zonky.test.db.postgres.embedded.EmbeddedPostgres;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.Properties;

/**
 * A real PostgreSQL 17 for a test class, and a session with {@link SessionSettings#OPTIONS}, so tests see the very
 * text the replication session prints. The session uses the simple query protocol: every value then arrives as its
 * type's output text ({@code SELECT v}, not {@code v::text}, which differs for bool, char(n) and inet).
 */
public final class PgTextServer implements AutoCloseable {

    private final EmbeddedPostgres server;
    private final Connection session;

    private PgTextServer(EmbeddedPostgres server, Connection session) {
        this.server = server;
        this.session = session;
    }

    public static PgTextServer start() {
        try {
            // zonky turns synchronous_commit off; logical decoding reads only flushed WAL, so a change would
            // reach a slot only after the WAL writer's next round.
            EmbeddedPostgres server = EmbeddedPostgres.builder()
                    .setServerConfig("wal_level", "logical")
                    .setServerConfig("synchronous_commit", "on")
                    .start();
            return new PgTextServer(server, connect(server, SessionSettings.OPTIONS));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } catch (SQLException e) {
            throw new IllegalStateException(e);
        }
    }

    /** A new session with the given {@code options}, in the simple query protocol; the caller closes it. */
    public Connection connect(String options) throws SQLException {
        return connect(server, options);
    }

    private static Connection connect(EmbeddedPostgres server, String options) throws SQLException {
        Properties props = new Properties();
        props.setProperty("user", "postgres");
        props.setProperty("preferQueryMode", "simple");
        props.setProperty("options", options);
        return DriverManager.getConnection("jdbc:postgresql://localhost:" + server.getPort() + "/postgres", props);
    }

    /** The session every helper below uses. */
    public Connection session() {
        return session;
    }

    /** PostgreSQL's output text of {@code expression}, or null for SQL NULL. */
    public String text(String expression) {
        try (Statement st = session.createStatement();
                ResultSet rs = st.executeQuery("SELECT " + expression)) {
            rs.next();
            return rs.getString(1);
        } catch (SQLException e) {
            throw new IllegalStateException("SELECT " + expression + ": " + e.getMessage(), e);
        }
    }

    /** Asserts that the server evaluates {@code condition} to true. */
    public void assertTrueOnServer(String condition) {
        assertTrue(Boolean.parseBoolean(text("(" + condition + ")::text")), "on the server: " + condition);
    }

    public void execute(String... statements) {
        try (Statement st = session.createStatement()) {
            for (String statement : statements) {
                st.execute(statement);
            }
        } catch (SQLException e) {
            throw new IllegalStateException(e.getMessage(), e);
        }
    }

    /**
     * The type of a column declared {@code sqlType}, as the source resolves it from a Relation message: the OID and
     * type modifier of a real column, through {@link JdbcTypeCatalog}.
     */
    public PgColumnType columnType(String sqlType) {
        execute("DROP TABLE IF EXISTS pg_temp.type_probe", "CREATE TEMP TABLE type_probe (v " + sqlType + ")");
        try (Statement st = session.createStatement();
                ResultSet rs = st.executeQuery("SELECT atttypid, atttypmod FROM pg_attribute"
                        + " WHERE attrelid = 'pg_temp.type_probe'::regclass AND attname = 'v'")) {
            rs.next();
            return new JdbcTypeCatalog(session).resolve((int) rs.getLong(1), rs.getInt(2));
        } catch (SQLException e) {
            throw new IllegalStateException(e.getMessage(), e);
        }
    }

    /** A SQL string literal of {@code text}. */
    public static String literal(String text) {
        return "'" + text.replace("'", "''") + "'";
    }

    @Override
    public void close() throws Exception {
        session.close();
        server.close();
    }
}
